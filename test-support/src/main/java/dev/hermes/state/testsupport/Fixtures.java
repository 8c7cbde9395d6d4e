package dev.hermes.state.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real state.db files the Python Hermes agent wrote, one per schema version, and the two
 * manifests that describe them (MANIFEST.md for versions 1-6, MANIFEST-v7-v17.md for the later
 * ones). They live in this module ({@code test-support/src/main/resources/fixtures/hermes/})
 * and reach every module's tests on the class path, so no test depends on its working directory
 * or on anything beside the checkout. Tests get a private copy in their own folder; the originals
 * are only ever read.
 */
public final class Fixtures {
    /**
     * The files of MANIFEST.md, oldest schema first: versions 1 to 6, all holding the same 30 sessions
     * and 95 messages (tests that expect exactly that data set use this list).
     */
    public static final List<String> NAMES_V1_TO_V6 = List.of("state-v1.db", "state-v2.db", "state-v3-foreign.db",
            "state-v4.db", "state-v5.db", "state-v6.db");
    /**
     * The files of MANIFEST-v7-v17.md, oldest schema first: that data set replayed through each version's
     * own API plus a block of sessions using what versions 7 to 17 added (42 or 43 sessions), then
     * state-v6.db as the version-17 agent upgraded it and used it afterwards.
     */
    public static final List<String> NAMES_V7_TO_V17 = List.of("state-v8.db", "state-v10.db", "state-v11.db",
            "state-v12.db", "state-v14.db", "state-v16.db", "state-v17.db", "state-v17-upgraded.db");
    /** Every fixture file, oldest schema first. */
    public static final List<String> NAMES = Stream.concat(NAMES_V1_TO_V6.stream(), NAMES_V7_TO_V17.stream()).toList();
    /** The manifests, each describing the files of one list above, in the order of {@link #NAMES}. */
    public static final List<String> MANIFESTS = List.of("MANIFEST.md", "MANIFEST-v7-v17.md");

    private static final String FOLDER = "/fixtures/hermes/";

    private Fixtures() {
    }

    /** A copy of fixture {@code name} as {@code dir/name} (replacing one there), readable and writable by its owner only. */
    public static Path copy(String name, Path dir) {
        Path target = dir.resolve(name);
        try (InputStream in = open(name)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy fixture " + name + " to " + dir, e);
        }
    }

    /** sha256 (hex) of the original fixture {@code name}, as its manifest gives it. */
    public static String originalSha256(String name) {
        try (InputStream in = open(name)) {
            return sha256(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** MANIFEST.md: how the files of versions 1-6 were made and what the agent answered on each. */
    public static String manifest() {
        return manifest("MANIFEST.md");
    }

    /** One of {@link #MANIFESTS}: how its files were made and what the agent answered on each. */
    public static String manifest(String manifestName) {
        if (!MANIFESTS.contains(manifestName)) {
            throw new IllegalArgumentException("no manifest " + manifestName + "; there are " + MANIFESTS);
        }
        try (InputStream in = open(manifestName)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** sha256 (hex) of any file: the tests' proof that something left a file byte-for-byte unchanged. */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** sha256 (hex) of some bytes: e.g. a logical dump of a store, to compare what two states of it hold. */
    public static String sha256(byte[] content) {
        try {
            return sha256(new ByteArrayInputStream(content));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    private static InputStream open(String name) {
        InputStream in = Fixtures.class.getResourceAsStream(FOLDER + name);
        if (in == null) {
            throw new IllegalArgumentException("no fixture " + name + " on the class path (test-support" + FOLDER + ")");
        }
        return in;
    }

    private static String sha256(InputStream in) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
            digest.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
