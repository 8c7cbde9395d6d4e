package dev.hermes.state.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The fixture files are the Python agent's originals, byte for byte: the checked-in files and the
 * copies Maven put on the class path have the size and sha256 their manifest gives (MANIFEST.md for
 * versions 1-6, MANIFEST-v7-v17.md for the later ones), and a test's copy is its own.
 */
class FixtureFilesTest {
    private static final Pattern SECTION = Pattern.compile("^## (\\S+)$");
    private static final Pattern SIZE_AND_SHA = Pattern.compile("^- size (\\d+) bytes, sha256 `([0-9a-f]{64})`");
    /** Each manifest's files in its order, with their size and sha256. */
    private static final Map<String, Map<String, Entry>> MANIFESTS = new LinkedHashMap<>();
    /** Every file of every manifest. */
    private static final Map<String, Entry> MANIFEST = new LinkedHashMap<>();

    static {
        for (String manifest : Fixtures.MANIFESTS) {
            Map<String, Entry> entries = manifestEntries(Fixtures.manifest(manifest));
            MANIFESTS.put(manifest, entries);
            MANIFEST.putAll(entries);
        }
    }

    @TempDir
    Path dir;

    private record Entry(long size, String sha256) {
    }

    @Test
    void theManifestsDescribeExactlyTheFixtureFiles() {
        assertEquals(Fixtures.NAMES_V1_TO_V6, MANIFESTS.get("MANIFEST.md").keySet().stream().toList());
        assertEquals(Fixtures.NAMES_V7_TO_V17, MANIFESTS.get("MANIFEST-v7-v17.md").keySet().stream().toList());
        assertEquals(Fixtures.NAMES, MANIFEST.keySet().stream().toList());
        assertEquals(14, Fixtures.NAMES.size());
    }

    @Test
    void theManifestsAreTheOriginalsToo() throws Exception {
        Path folder = Path.of(System.getProperty("basedir", ".")).resolve("src/main/resources/fixtures/hermes");
        for (String manifest : Fixtures.MANIFESTS) {
            assertEquals(Files.readString(folder.resolve(manifest)), Fixtures.manifest(manifest), manifest);
        }
        assertEquals(Fixtures.manifest("MANIFEST.md"), Fixtures.manifest());
        assertThrows(IllegalArgumentException.class, () -> Fixtures.manifest("README.md"));
    }

    @ParameterizedTest
    @FieldSource("dev.hermes.state.testsupport.Fixtures#NAMES")
    void everyFixtureHasTheManifestsSizeAndSha256(String name) throws Exception {
        Entry expected = MANIFEST.get(name);
        assertEquals(expected.sha256(), Fixtures.originalSha256(name), "on the class path");
        Path copy = Fixtures.copy(name, dir);
        assertEquals(expected.size(), Files.size(copy));
        assertEquals(expected.sha256(), Fixtures.sha256(copy), "a copy");
        Path checkedIn = Path.of(System.getProperty("basedir", ".")).resolve("src/main/resources/fixtures/hermes").resolve(name);
        assertEquals(expected.sha256(), Fixtures.sha256(checkedIn), "in the repository: " + checkedIn);
    }

    @Test
    void aCopyIsPrivateAndChangingItLeavesTheOriginalAlone() throws Exception {
        Path copy = Fixtures.copy("state-v6.db", dir);
        assertEquals(dir.resolve("state-v6.db"), copy);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)));
        Files.write(copy, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        assertNotEquals(MANIFEST.get("state-v6.db").sha256(), Fixtures.sha256(copy));
        assertEquals(MANIFEST.get("state-v6.db").sha256(), Fixtures.originalSha256("state-v6.db"));

        Fixtures.copy("state-v6.db", dir);
        assertEquals(MANIFEST.get("state-v6.db").sha256(), Fixtures.sha256(copy), "a new copy replaces a changed one");
    }

    /** "## state-vN.db" sections and their "- size N bytes, sha256 `...`" line, in the manifest's order. */
    private static Map<String, Entry> manifestEntries(String manifest) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        String section = null;
        for (String line : manifest.lines().toList()) {
            Matcher heading = SECTION.matcher(line);
            Matcher sizeAndSha = SIZE_AND_SHA.matcher(line);
            if (heading.matches()) {
                section = heading.group(1);
            } else if (section != null && sizeAndSha.find()) {
                entries.put(section, new Entry(Long.parseLong(sizeAndSha.group(1)), sizeAndSha.group(2)));
            }
        }
        return entries;
    }
}
