package dev.hermes.state.bench.raw;

import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.MatchCounts;
import dev.hermes.state.bench.data.SearchCases;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.bench.workload.W1Ingest;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baseline must do the same work as the store, or its ratios mean nothing: same rows, counters,
 * index, search results and conversation shape, on a real file with the project's schema.
 */
class RawJdbcStoreTest {
    private static final ZipfSampler SAMPLER = new ZipfSampler(Vocabulary.build());
    @TempDir
    static Path shared;
    private static Path emptySchema;

    /** Liquibase is slow to start: migrate one empty file and copy it for each test. */
    @BeforeAll
    static void createSchemaOnce() {
        emptySchema = shared.resolve("schema.db");
        Migrator.create().toVersion(StateRepository.DEFAULT_SCHEMA_VERSION).migrate(emptySchema);
    }

    private static Path freshDatabase(Path folder, String name) throws java.io.IOException {
        return Files.copy(emptySchema, folder.resolve(name));
    }

    @Test
    void ingestScheduleWritesRowsCountersAndIndex(@TempDir Path folder) throws Exception {
        Path db = freshDatabase(folder, "raw.db");
        IngestPlan plan = IngestPlan.build(120, 12, SAMPLER);
        W1Ingest.Result result;
        // with Hermes' checkpoint policy: a PASSIVE checkpoint after every 50 commits
        try (RawJdbcStore raw = RawJdbcStore.open(db, 50)) {
            result = W1Ingest.run(plan, db, W1Ingest.Calls.of(raw));
        }
        assertEquals(1440, result.messages());
        assertEquals(1440, result.appends().count());
        assertEquals(120, result.creates().count());
        assertEquals(10, result.slices().size());
        assertTrue(result.slices().stream().allMatch(slice -> slice.dbBytes() > 0 && slice.msgsPerS() > 0));
        try (Connection plain = SqliteFiles.readWrite(db);
             Statement statement = plain.createStatement()) {
            assertEquals(1440, single(statement, "SELECT count(*) FROM messages"));
            assertEquals(1440, single(statement, "SELECT sum(message_count) FROM sessions"));
            // 12 messages: j = 9 calls a tool, j = 10 answers it
            assertEquals(120, single(statement, "SELECT sum(tool_call_count) FROM sessions"));
            assertEquals(1, single(statement, "SELECT tool_call_count FROM sessions WHERE id = 'bench-000007'"));
            assertEquals(120, single(statement, "SELECT count(*) FROM messages WHERE role = 'tool' AND tool_name = 'terminal'"));
            assertEquals(24, single(statement, "SELECT count(*) FROM sessions WHERE source = 'slack'"));
            assertEquals(120, single(statement, "SELECT count(*) FROM sessions WHERE model = 'bench/model-a'"));
            try (ResultSet rows = statement.executeQuery(
                    "SELECT tool_calls FROM messages WHERE session_id = 'bench-000000' AND tool_calls IS NOT NULL ORDER BY id LIMIT 1")) {
                rows.next();
                assertEquals("[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"terminal\","
                        + "\"arguments\":\"{\\\"cmd\\\": \\\"ls\\\"}\"}}]", rows.getString(1));
            }
            statement.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')");
        }
    }

    @Test
    void batchIngestOfTheQuickSizeGivesTheAppendixMatchCounts(@TempDir Path folder) throws Exception {
        Path db = freshDatabase(folder, "raw-batch.db");
        IngestPlan plan = IngestPlan.build(500, 40, SAMPLER);
        W1Ingest.BatchResult result;
        try (RawJdbcStore raw = RawJdbcStore.open(db)) {
            result = W1Ingest.runBatches(plan, W1Ingest.BatchCalls.of(raw));
        }
        assertEquals(20_000, result.messages());
        assertEquals(500, result.batches().count());
        Map<String, Long> counts = MatchCounts.inDatabase(db);
        assertEquals(List.of(), MatchCounts.mismatches(counts, 500, 40));
        assertEquals(19_988, counts.get("wune"));

        try (RawJdbcStore raw = RawJdbcStore.open(db)) {
            List<RawJdbcStore.Hit> hits = raw.search("quasar", 20);
            assertEquals(20, hits.size());
            try (Connection plain = SqliteFiles.readWrite(db);
                 Statement statement = plain.createStatement()) {
                for (RawJdbcStore.Hit hit : hits) {
                    assertTrue(hit.snippet().contains(">>>quasar<<<"), hit.snippet());
                    assertEquals("bench/model-a", hit.model());
                    // context = the session's previous, own and next message by (timestamp, id), cut to 200
                    List<String> expected = new java.util.ArrayList<>();
                    try (ResultSet rows = statement.executeQuery("SELECT id, substr(content, 1, 200) FROM messages"
                            + " WHERE session_id = '" + hit.sessionId() + "' ORDER BY timestamp, id")) {
                        List<Long> ids = new java.util.ArrayList<>();
                        List<String> contents = new java.util.ArrayList<>();
                        while (rows.next()) {
                            ids.add(rows.getLong(1));
                            contents.add(rows.getString(2));
                        }
                        int at = ids.indexOf(hit.id());
                        expected.addAll(contents.subList(Math.max(0, at - 1), Math.min(contents.size(), at + 2)));
                    }
                    assertEquals(expected, hit.context().stream().map(c -> c.get("content")).toList());
                }
            }
            assertEquals(0, raw.search("\"latency rollback\"", 20).size());
            assertEquals(SearchCases.ALL.size(), 60);

            List<Map<String, Object>> conversation = raw.conversation("bench-000003");
            assertEquals(40, conversation.size());
            assertEquals("user", conversation.get(0).get("role"));
            Map<String, Object> call = conversation.get(9);
            assertEquals("assistant", call.get("role"));
            // as stored, undecoded: the store's conversation hands the text on too (ToolCalls), so W4 compares like for like
            assertEquals("[{\"id\":\"call_4\",\"type\":\"function\",\"function\":{\"name\":\"terminal\","
                    + "\"arguments\":\"{\\\"cmd\\\": \\\"ls\\\"}\"}}]", call.get("tool_calls"));
            Map<String, Object> tool = conversation.get(10);
            assertEquals("call_4", tool.get("tool_call_id"));
            assertEquals("terminal", tool.get("tool_name"));
            // the schema is at 17: today's agent's conversation rows carry their timestamp
            assertEquals(List.of("role", "content", "timestamp"), List.copyOf(conversation.get(0).keySet()));
        }
    }

    private static long single(Statement statement, String sql) throws Exception {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
