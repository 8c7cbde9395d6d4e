package dev.hermes.state.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The selection flags and export formats of {@code sessions list|prune|archive|export} on a copy of
 * today's agent's file, in process: the same selection in every command, dry runs that change nothing,
 * the Markdown folder's SHA-256 sums, an HTML page in which no stored markup survives as a tag, and
 * {@code --redact} masking secrets (and keeping their look-alikes) in each format. Ages are not used
 * against the real clock (the fixture's rows would age out of the window): start dates are.
 */
class SessionsSelectionCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The session of secrets and markup the tests add (started after every fixture row). */
    private static final String PLANTED = "20261202_120000_planted";
    private static final List<String> SECRETS = List.of("sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678",
            "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "AKIAIOSFODNN7EXAMPLE", "S3cr3t-Pa55w0rd");
    private static final List<String> LOOK_ALIKES = List.of("a risk-free plan", "3f2a9c1d8b7e6f5a4c3b2a1908f7e6d5c4b3a291",
            "7c9e6679-7425-40de-944b-e07fc1f90ae7", "bob.smith@example.com", "https://docs.example.com/guide");

    @TempDir
    Path dir;
    Path db;

    record Result(int exitCode, String out, String err) {
        JsonNode json() throws Exception {
            assertEquals(0, exitCode, err);
            return JSON.readTree(out);
        }
    }

    private Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--db", db.toString()));
        all.addAll(List.of(args));
        int code = HermesStateCli.run(all.toArray(String[]::new), new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A copy of today's agent's file, opened once read-write (the first open records the store's own rows). */
    @BeforeEach
    void copyFixture() {
        db = Fixtures.copy("state-v17.db", dir);
        assertEquals(0, run("migrate").exitCode());
    }

    private static List<String> ids(JsonNode rows) {
        List<String> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.get("id").asText()));
        return ids;
    }

    @Test
    void everyCommandSelectsTheSameSessions() throws Exception {
        String before = Fixtures.sha256(db);
        String[] filters = {"--source", "cli", "--before", "1796159100.6", "--min-messages", "2"};
        // plain SQL of the fixture: source cli, started before .6, at least 2 messages, not archived
        List<String> expected = List.of("20260311_080000_2133b2", "20260310_135900_0957cb", "20260310_125900_7d739b",
                "20260310_113000_6c0e5a", "20260310_090500_53bef4", "20260310_090000_8520da");
        assertEquals(expected, ids(run(concat(new String[] {"--json", "sessions", "list", "--all"}, filters)).json()));
        JsonNode prune = run(concat(new String[] {"--json", "sessions", "prune", "--dry-run"}, filters)).json();
        assertEquals(List.of("20260311_080000_2133b2"), ids(prune.get("sessions")), "the chain's tip is live: the chain stays");
        assertEquals(1, prune.get("would_delete").asInt());
        assertEquals(6, prune.get("messages").asInt());
        JsonNode archive = run(concat(new String[] {"--json", "sessions", "archive", "--dry-run"}, filters)).json();
        assertEquals(expected, ids(archive.get("sessions")), "archive takes the live chain too");
        JsonNode export = run(concat(new String[] {"--json", "sessions", "export", "--dry-run"}, filters)).json();
        assertEquals(expected, ids(export.get("sessions")));
        Result lines = run(concat(new String[] {"sessions", "export"}, filters));
        assertEquals(0, lines.exitCode(), lines.err());
        List<String> exported = new ArrayList<>();
        for (String line : lines.out().split("\n")) {
            exported.add(JSON.readTree(line).get("id").asText());
        }
        assertEquals(expected, exported);
        assertEquals(before, Fixtures.sha256(db), "dry runs and exports change nothing");

        Result pruned = run(concat(new String[] {"sessions", "prune"}, filters));
        assertEquals("Pruned 1 session and 6 messages (before 1796159100.6, source cli, min-messages 2)",
                pruned.out().strip(), pruned.err());
        Result archived = run(concat(new String[] {"sessions", "archive"}, filters));
        assertTrue(archived.out().strip().endsWith("Archived 5 sessions and 13 messages."), archived.out());
        assertEquals(List.of(), ids(run(concat(new String[] {"--json", "sessions", "list", "--children"}, filters)).json()),
                "archived sessions are left out");
        assertEquals(5, run(concat(new String[] {"--json", "sessions", "list", "--children", "--include-archived"}, filters))
                .json().size());
    }

    @Test
    void pruneWithoutAFilterNeedsYesWithoutATerminalAndBadFlagsAreOneLine() throws Exception {
        String before = Fixtures.sha256(db);
        Result bare = run("sessions", "prune");
        assertEquals(1, bare.exitCode());
        assertEquals("hermes-state: sessions prune without a filter deletes every ended session inactive for 90 days: confirm with"
                + " --yes, or see them first with --dry-run", bare.err().strip());
        Result minAboveMax = run("sessions", "prune", "--min-messages", "5", "--max-messages", "4");
        assertEquals(1, minAboveMax.exitCode());
        assertEquals("hermes-state: min-messages 5 is above max-messages 4: no session can match", minAboveMax.err().strip());
        Result badAge = run("sessions", "list", "--older-than", "3 fortnights");
        assertEquals(1, badAge.exitCode());
        assertTrue(badAge.err().startsWith("hermes-state: --older-than 3 fortnights: give days (90)"), badAge.err());
        Result badDate = run("sessions", "export", "--after", "yesterday");
        assertEquals(1, badDate.exitCode());
        assertFalse(badDate.err().contains("Exception"), badDate.err());
        Result archiveAll = run("sessions", "archive");
        assertEquals(1, archiveAll.exitCode());
        assertTrue(archiveAll.err().startsWith("hermes-state: sessions archive needs a session ID or at least one filter"), archiveAll.err());
        assertEquals(before, Fixtures.sha256(db), "refusals change nothing");
    }

    /** Adds a session whose messages hold secrets, look-alikes and markup. */
    private void plant() {
        try (StateRepository store = StateRepository.builder().path(db).build()) {
            store.createSession(NewSession.builder(PLANTED, "cli").model("openai/gpt-5.4").build());
            store.setSessionTitle(PLANTED, "\"><svg onload=alert(1)> keys & <b>notes</b>");
            store.appendMessage(PLANTED, NewMessage.of("user", "my key is " + SECRETS.get(0) + " and token " + SECRETS.get(1)
                    + "\n<script>alert('x')</script><img src=x onerror=alert(1)>\n```\nfence breaker\n```"));
            store.appendMessage(PLANTED, NewMessage.of("assistant", "aws " + SECRETS.get(2)
                    + " db postgresql://hermes:" + SECRETS.get(3) + "@db.internal/state; " + String.join("; ", LOOK_ALIKES)
                    + " </pre></div><iframe src=\"javascript:alert(2)\"></iframe>"));
        }
    }

    @Test
    void markdownWritesAFilePerSessionAndTheirSha256() throws Exception {
        plant();
        Path out = dir.resolve("md");
        Result result = run("sessions", "export", "--format", "md", "--out", out.toString(), "--after", "1796159101.1",
                "--include-archived");
        assertEquals(0, result.exitCode(), result.err());
        // started at or after 1796159101.1: the archived pair, the branch pair, four others, and the planted one
        Set<String> files = new TreeSet<>();
        try (Stream<Path> list = Files.list(out)) {
            list.forEach(file -> files.add(file.getFileName().toString()));
        }
        assertEquals(Set.of("SHA256SUMS", "20260401_091500_e4c1b2.md", "20260401_094500_e4c1b3.md", "20260402_080000_e4c1c4.md",
                "20260402_081500_e4c1c5.md", "20260402_090000_e4c1d6.md", "20260402_091000_e4c1d7.md", "20260402_100000_e4c1e8.md",
                "20260402_110000_e4c1f9.md", "20260402_120000_e4c20a.md", "20260402_130000_e4c21b.md", "20260402_140000_e4c22c.md",
                PLANTED + ".md"), files);
        List<String> sums = Files.readAllLines(out.resolve("SHA256SUMS"));
        assertEquals(files.size() - 1, sums.size());
        for (String line : sums) {
            String[] parts = line.split("  ", 2);
            byte[] bytes = Files.readAllBytes(out.resolve(parts[1]));
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)), parts[0], parts[1]);
        }
        String planted = Files.readString(out.resolve(PLANTED + ".md"));
        assertTrue(planted.contains("````\nmy key is " + SECRETS.get(0)), "a fence longer than the content's: " + planted);
        assertTrue(planted.startsWith("# \"\\>\\<svg onload=alert(1)\\> keys & \\<b\\>notes\\</b\\>\n"), planted);
        Result again = run("sessions", "export", "--format", "md", "--out", out.toString());
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("is not empty"), again.err());
    }

    @Test
    void htmlIsOnePageWithoutScriptAndNoStoredTagSurvives() throws Exception {
        plant();
        Result page = run("sessions", "export", "--format", "html", "--include-archived", "--after", "1796159100");
        assertEquals(0, page.exitCode(), page.err());
        String html = page.out();
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.strip().endsWith("</body></html>"), html);
        assertFalse(html.toLowerCase().contains("<script"), "no script");
        assertFalse(html.contains("src=\"http") || html.contains("href="), "no external resource");
        Set<String> tags = new TreeSet<>();
        Matcher tag = Pattern.compile("<(/?[A-Za-z!][A-Za-z0-9]*)").matcher(html);
        while (tag.find()) {
            tags.add(tag.group(1).replace("/", "").toLowerCase());
        }
        assertEquals(Set.of("!doctype", "html", "head", "meta", "title", "style", "body", "h1", "h2", "section", "table",
                "tr", "td", "div", "pre"), tags, "only the page's own tags");
        assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
        assertTrue(html.contains("&quot;&gt;&lt;svg onload=alert(1)&gt; keys &amp; &lt;b&gt;notes&lt;/b&gt;"));
        assertEquals(44, html.split("<section>", -1).length - 1, "every session: the fixture's 43 and the planted one");
    }

    @Test
    void redactMasksSecretsInEveryFormatAndKeepsLookAlikes() throws Exception {
        plant();
        for (String format : List.of("jsonl", "md", "html")) {
            Path out = Files.createDirectories(dir.resolve("export-" + format));
            Result plain = run("sessions", "export", "--format", format, "--out", out.resolve("plain").toString(),
                    "--after", "1796159102", "--include-archived");
            Result masked = run("sessions", "export", "--format", format, "--out", out.resolve("masked").toString(),
                    "--after", "1796159102", "--include-archived", "--redact");
            assertEquals(0, plain.exitCode(), plain.err());
            assertEquals(0, masked.exitCode(), masked.err());
            String plainText = read(out.resolve("plain"));
            String maskedText = read(out.resolve("masked"));
            for (String secret : SECRETS) {
                assertTrue(plainText.contains(secret), format + " without --redact keeps " + secret);
                assertFalse(maskedText.contains(secret), format + " with --redact masks " + secret);
            }
            for (String kept : LOOK_ALIKES) {
                assertTrue(maskedText.contains(kept), format + " keeps " + kept);
            }
            assertTrue(maskedText.contains("sk-proj-[REDACTED]") && maskedText.contains("postgresql://hermes:[REDACTED]@db.internal"),
                    format + ": " + maskedText);
            assertTrue(masked.out().contains("secrets masked"), masked.out());
        }
    }

    private static String read(Path path) throws Exception {
        if (!Files.isDirectory(path)) {
            return Files.readString(path);
        }
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(path)) {
            for (Path file : files.sorted().toList()) {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }
}
