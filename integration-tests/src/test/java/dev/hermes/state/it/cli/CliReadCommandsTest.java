package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reading commands as real processes on a copy of the Python agent's version-6 file, checked
 * against the MANIFEST's answers: {@code --json} output parsed, human output's key lines.
 */
class CliReadCommandsTest {
    static final String ROOT = "20260310_090000_8520da";
    static final String DELEGATE = "20260310_090500_53bef4";
    static final String L2 = "20260310_113000_6c0e5a";
    static final String L3 = "20260310_125900_7d739b";
    static final String TIP = "20260310_135900_0957cb";

    static final List<String> SESSION_KEYS = List.of("id", "source", "user_id", "model", "model_config",
            "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason", "message_count",
            "tool_call_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
            "reasoning_tokens", "billing_provider", "billing_base_url", "billing_mode", "estimated_cost_usd",
            "actual_cost_usd", "cost_status", "cost_source", "pricing_version", "title");

    @TempDir
    static Path dir;
    static Cli cli;
    static String db;

    /** The v6 answers of MANIFEST.md: the file is kept at 6 (CliV17SessionsTest reads today's agent's files at 17). */
    @BeforeAll
    static void copyFixture() {
        cli = new Cli(dir).keptAtSix();
        db = Fixtures.copy("state-v6.db", dir).toString();
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            keys.add(names.next());
        }
        return keys;
    }

    @Test
    void listJsonIsHermesRichListing() {
        JsonNode rows = cli.json("--db", db, "--json", "sessions", "list", "--limit", "50");
        assertEquals(26, rows.size(), "len(list_sessions_rich(limit=50)) on v6");
        String[][] firstSix = {
                {"20260315_124812_eeef83", "my project notes", "Notes for my project: database migration dry-run results"},
                {"20260314_114159_49276f", null, "What's the status of the 🐛 bug #12?"},
                {"20260314_103446_3e72c1", null, "数据库迁移完成了吗？"},
                {"20260314_092733_a67437", null, "Python NOT java — which should I learn first?"},
                {"20260314_082020_73b220", null, "Deploy the kubernetes manifests to prod"},
                {"20260314_171307_59ec25", null, "A".repeat(60) + "..."}};
        for (int i = 0; i < firstSix.length; i++) {
            JsonNode row = rows.get(i);
            assertEquals(firstSix[i][0], row.get("id").asText(), "row " + i);
            assertEquals(firstSix[i][1], row.get("title").isNull() ? null : row.get("title").asText(), "row " + i);
            assertEquals(firstSix[i][2], row.get("preview").asText(), "row " + i);
            assertFalse(row.has("_lineage_root_id"), "row " + i);
        }
        JsonNode chain = null;
        for (JsonNode row : rows) {
            // Hermes adds _lineage_root_id to the rows it projected onto a compression tip, and only to them
            List<String> expected = new ArrayList<>(SESSION_KEYS);
            expected.addAll(List.of("preview", "last_active"));
            if (row.has("_lineage_root_id")) {
                assertEquals(null, chain, "one projected chain");
                chain = row;
                expected.add("_lineage_root_id");
            }
            assertEquals(expected, keys(row));
            assertTrue(row.get("started_at").isFloatingPointNumber(), "timestamps are epoch-second floats: " + row);
            assertTrue(row.get("last_active").isFloatingPointNumber());
            assertTrue(row.get("message_count").isIntegralNumber());
        }
        assertTrue(chain != null, "the compression chain is projected");
        assertEquals(ROOT, chain.get("_lineage_root_id").asText());
        assertEquals(TIP, chain.get("id").asText());
        assertEquals("my project #4", chain.get("title").asText());
        assertEquals(1796040268.817676, chain.get("started_at").asDouble(), 1e-6, "keeps the root's started_at");
        assertTrue(chain.get("ended_at").isNull(), "takes the live tip's ended_at");
        assertEquals(2, chain.get("message_count").asInt());
    }

    @Test
    void listFiltersAndChildren() {
        JsonNode all = cli.json("--db", db, "--json", "sessions", "list", "--limit", "50", "--all");
        assertEquals(30, all.size());
        all.forEach(row -> assertFalse(row.has("_lineage_root_id"), "--all projects nothing: " + row));
        JsonNode noTips = cli.json("--db", db, "--json", "sessions", "list", "--limit", "50", "--no-tips");
        assertEquals(26, noTips.size());
        noTips.forEach(row -> assertFalse(row.has("_lineage_root_id"), "--no-tips projects nothing: " + row));
        assertTrue(Cli.ids(all).containsAll(List.of(DELEGATE, L2, L3, TIP, ROOT)));

        JsonNode some = cli.json("sessions", "list", "--db", db, "--json", "--limit", "50",
                "--exclude-source", "cli", "--exclude-source", "slack");
        assertEquals(12, some.size());
        some.forEach(row -> assertTrue(List.of("discord", "telegram").contains(row.get("source").asText()), row.toString()));

        JsonNode page = cli.json("--db", db, "--json", "sessions", "list", "--source", "telegram", "--limit", "2",
                "--offset", "1");
        assertEquals(List.of("20260313_155941_d69e91", "20260313_113149_7a0ee5"), Cli.ids(page));
    }

    @Test
    void listForPeopleIsAnAlignedTable() {
        List<String> lines = cli.run("--db", db, "sessions", "list", "--limit", "30").ok().lines();
        assertTrue(lines.get(0).matches("ID +TITLE +SOURCE +MSGS +STARTED +LAST ACTIVE +PREVIEW"), lines.get(0));
        int previewColumn = lines.get(0).indexOf("PREVIEW");
        String first = lines.get(1);
        assertTrue(first.startsWith("20260315_124812_eeef83  my project notes"), first);
        assertTrue(first.endsWith("Notes for my project: database migration dry-run results"), first);
        assertEquals(previewColumn, first.indexOf("Notes for"), "the preview column is aligned");
        assertTrue(lines.stream().anyMatch(line -> line.startsWith(TIP + "  ⛓ my project #4")), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("⛓ = a compression chain")));
        assertFalse(lines.stream().anyMatch(line -> line.startsWith("Showing")), "26 rows fit in a page of 30");
    }

    @Test
    void showResolvesTitlesAndPrefixes() {
        JsonNode byTitle = cli.json("--db", db, "--json", "sessions", "show", "my project");
        assertEquals(TIP, byTitle.get("id").asText(), "resolve_session_by_title('my project') is the newest of the lineage");
        assertEquals(2, byTitle.get("messages").size());
        List<String> expected = new ArrayList<>(SESSION_KEYS);
        expected.add("messages");
        assertEquals(expected, keys(byTitle));
        assertEquals(List.of(12L, 13L), Cli.sortedNumericIds(byTitle.get("messages")));

        List<String> lines = cli.run("--db", db, "sessions", "show", "20260310_0900").ok().lines();
        assertEquals("Session " + ROOT + "  \"my project\"", lines.get(0));
        assertTrue(lines.contains("Messages (5)"), String.join("\n", lines));
        assertTrue(lines.contains("    → terminal({\"command\": \"pg_dump --schema-only app > schema.sql\"})"),
                "tool calls are shown as name(arguments):\n" + String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.matches("\\[\\d\\d:\\d\\d:\\d\\d] tool terminal.*")));
    }

    @Test
    void lineageIsTheWholeTreeRootFirst() {
        JsonNode lineage = cli.json("--db", db, "--json", "sessions", "lineage", L3);
        assertEquals(L3, lineage.get("session_id").asText());
        assertEquals(ROOT, lineage.get("root_id").asText());
        assertEquals(TIP, lineage.get("compression_tip_id").asText());
        JsonNode sessions = lineage.get("sessions");
        assertEquals(5, sessions.size());
        for (JsonNode session : sessions) {
            int expectedDepth = switch (session.get("id").asText()) {
                case ROOT -> 0;
                case DELEGATE, L2 -> 1;
                case L3 -> 2;
                case TIP -> 3;
                default -> throw new AssertionError("unexpected session in the lineage: " + session);
            };
            assertEquals(expectedDepth, session.get("depth").asInt(), session.toString());
        }

        List<String> tree = cli.run("--db", db, "sessions", "lineage", "my project").ok().lines();
        assertEquals(5, tree.size(), String.join("\n", tree));
        assertTrue(tree.get(0).startsWith("my project  " + ROOT + "  cli  5 msgs  started "), tree.get(0));
        assertTrue(tree.get(0).endsWith("ended: compression"), tree.get(0));
        assertTrue(tree.get(1).startsWith("├─ (untitled)  " + DELEGATE), tree.get(1));
        assertTrue(tree.get(1).endsWith("ended: delegate_complete"), tree.get(1));
        assertTrue(tree.get(2).startsWith("└─ my project #2  " + L2), tree.get(2));
        assertTrue(tree.get(3).startsWith("   └─ my project #3  " + L3), tree.get(3));
        assertTrue(tree.get(4).startsWith("      └─ my project #4  " + TIP), tree.get(4));
        assertTrue(tree.get(4).endsWith("live  ← tip of the chain  ◀ requested"), tree.get(4));
    }

    @Test
    void searchJsonFindsWhatTheManifestSays() {
        JsonNode docker = cli.json("--db", db, "--json", "search", "docker", "--limit", "50");
        assertEquals(List.of(30L, 31L, 79L, 80L), Cli.sortedNumericIds(docker));
        JsonNode hit = docker.get(0);
        assertEquals(List.of("id", "session_id", "role", "snippet", "timestamp", "tool_name", "source", "model",
                "session_started", "context"), keys(hit));
        assertTrue(hit.get("snippet").asText().toLowerCase().contains(">>>docker<<<"), hit.toString());
        assertTrue(hit.get("context").size() >= 2 && hit.get("context").size() <= 3, hit.toString());
        assertEquals(List.of("role", "content"), keys(hit.get("context").get(0)));

        assertEquals(List.of(2L, 8L, 9L, 10L, 11L, 12L, 13L, 96L), Cli.sortedNumericIds(
                cli.json("--db", db, "--json", "search", "\"database migration\"", "--limit", "50")));
        assertEquals(List.of(20L, 21L, 91L, 92L), Cli.sortedNumericIds(
                cli.json("--db", db, "--json", "search", "迁移", "--limit", "50")),
                "a CJK word inside a longer run is found (Hermes' fallback)");
        assertEquals(List.of(49L, 50L), Cli.sortedNumericIds(
                cli.json("--db", db, "--json", "search", "C++", "--limit", "50")));
    }

    @Test
    void searchForPeopleMarksMatchesPlainWhenPipedAndInColourOnRequest() {
        List<String> piped = cli.run("--db", db, "search", "docker", "--source", "cli").ok().lines();
        assertTrue(piped.get(0).matches(" ?1\\. 20260311_122852_b6ebb0 · cli · (user|assistant|tool).*"), piped.get(0));
        assertTrue(piped.get(1).toLowerCase().contains(">>>docker<<<"), piped.get(1));
        assertEquals("2 hits for 'docker'.", piped.get(piped.size() - 1));
        assertFalse(String.join("\n", piped).contains("\u001B["), "no escape codes when piped");

        String coloured = cli.run("--db", db, "--color", "always", "search", "docker").ok().stdout();
        assertTrue(coloured.contains("\u001B[1;33m"), coloured);
        assertFalse(coloured.contains(">>>"), coloured);
    }

    @Test
    void statsCountsPerSourceModelAndSize() {
        JsonNode stats = cli.json("--db", db, "--json", "stats");
        assertEquals(30, stats.get("sessions").asInt());
        assertEquals(95, stats.get("messages").asInt());
        List<String> sources = new ArrayList<>();
        stats.get("by_source").forEach(row -> sources.add(row.get("source").asText() + "=" + row.get("sessions").asInt()));
        assertEquals(List.of("cli=12", "discord=6", "slack=6", "telegram=6"), sources);
        double estimated = 0;
        double actual = 0;
        long input = 0;
        long cacheRead = 0;
        long reasoning = 0;
        for (JsonNode row : stats.get("by_model")) {
            estimated += row.get("estimated_cost_usd").asDouble();
            actual += row.get("actual_cost_usd").asDouble();
            input += row.get("input_tokens").asLong();
            cacheRead += row.get("cache_read_tokens").asLong();
            reasoning += row.get("reasoning_tokens").asLong();
        }
        assertEquals(0.649038, estimated, 1e-9);
        assertEquals(0.14373, actual, 1e-9);
        assertEquals(92431, input);
        assertEquals(16230, cacheRead);
        assertEquals(4950, reasoning);
        assertEquals("anthropic/claude-opus-4.6", stats.get("by_model").get(0).get("model").asText());
        assertEquals(9, stats.get("by_model").get(0).get("sessions").asInt());
        assertEquals(List.of("20260311_080000_2133b2", "20260312_165644_c7084c", "20260314_082020_73b220", ROOT,
                "20260311_112139_dc5519"), Cli.ids(stats.get("largest_sessions")));

        List<String> lines = cli.run("--db", db, "stats").ok().lines();
        assertEquals("30 sessions, 95 messages", lines.get(0));
        assertTrue(lines.contains("Per source"));
        assertTrue(lines.stream().anyMatch(line -> line.matches("cli +12 +\\S+ +\\S+ +.*")), String.join("\n", lines));
        assertTrue(lines.contains("Tokens and cost per model"));
        assertTrue(lines.contains("Largest sessions"));
    }

    @Test
    void readOnlyReadsWithoutWriting() {
        String before = Fixtures.sha256(Path.of(db));
        JsonNode rows = cli.json("--db", db, "--read-only", "--json", "sessions", "list", "--limit", "3");
        assertEquals(3, rows.size());
        assertEquals(before, Fixtures.sha256(Path.of(db)));
    }
}
