package dev.hermes.state.core.maintenance;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RepairReport;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The doctor and repair on a PostgreSQL store: the same findings in SQL, the search columns checked too. */
public class PostgresDoctorTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private void fill() {
        try (StateRepository store = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            store.createSession(NewSession.builder("root", "cli").build());
            store.createSession(NewSession.builder("child", "cli").parentSessionId("root").build());
            store.appendMessage("root", NewMessage.of("user", "how do I roll back the postgres migration"));
            store.appendMessage("root", NewMessage.of("assistant", "数据库迁移 with liquibase rollback"));
            store.appendMessage("child", NewMessage.of("user", "and the sessions table"));
        }
    }

    private void execute(String... statements) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            try (ResultSet rows = statement.executeQuery(sql)) {
                assertTrue(rows.next());
                return rows.getLong(1);
            }
        }
    }

    @Test
    void aHealthyStorePassesEveryCheck() {
        fill();
        DoctorReport report = StoreDoctor.forServer(postgres.url(), postgres.schema()).check();
        assertEquals(List.of(), report.problems(), report.toString());
        assertEquals(17, report.schemaVersion());
        assertTrue(report.findings().stream().anyMatch(f -> f.code().equals("fts.tsvector") && !f.isProblem()), report.toString());
        assertTrue(report.findings().stream().anyMatch(f -> f.code().equals("fts.cjk") && !f.isProblem()), report.toString());
    }

    @Test
    void driftedCountersCyclesAndAMissingCjkIndexAreNamedAndTheMendableOnesMended() throws SQLException {
        fill();
        execute("UPDATE sessions SET message_count = 9 WHERE id = 'root'",
                "INSERT INTO sessions (id, source, started_at) VALUES ('a', 'cli', 1), ('b', 'cli', 2)",
                "UPDATE sessions SET parent_session_id = 'b' WHERE id = 'a'",
                "UPDATE sessions SET parent_session_id = 'a' WHERE id = 'b'",
                "DROP INDEX idx_messages_content_grams");
        StoreDoctor doctor = StoreDoctor.forServer(postgres.url(), postgres.schema());
        DoctorReport report = doctor.check();
        assertEquals(List.of("fts.cjk", "counters.message_count", "orphans.cycles"), report.problemCodes(), report.toString());
        assertEquals("index idx_messages_content_grams", report.problems().get(0).subject());
        assertEquals(Finding.Severity.ERROR, report.worst());

        RepairReport repaired = doctor.repair(false);
        assertEquals(List.of("clear the parent link of each cycle's first session",
                "recount message_count and tool_call_count from the rows"), repaired.actions());
        assertEquals(List.of("fts.cjk"), repaired.after().problemCodes());
        assertEquals(2, queryLong("SELECT message_count FROM sessions WHERE id = 'root'"));
        assertEquals(1, queryLong("SELECT count(*) FROM sessions WHERE id IN ('a', 'b') AND parent_session_id IS NULL"));
    }
}
