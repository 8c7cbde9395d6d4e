package dev.hermes.state.core.backend.postgres;

import dev.hermes.state.core.backend.SessionParents;
import dev.hermes.state.BusyException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.core.model.RepairReport;
import dev.hermes.state.migrations.HermesSchema;
import dev.hermes.state.migrations.SchemaDefinitions;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.postgresql.PostgresLocation;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The doctor's checks of a PostgreSQL store, in SQL: the objects the version requires (the tsvector
 * and CJK search columns and their indexes in place of FTS5's), each stored search value against what
 * its generation expression gives for the row now (a function replaced after the rows were written
 * leaves them stale), the counters against the rows, orphans and cycles. The server guards its own
 * pages, so there is no file-level check; repair recounts, clears parent links to nowhere and cycles,
 * and rebuilds the search indexes, under the store's write lock.
 */
public final class PostgresDoctor {
    private static final String TOOL_CALLS = "CASE WHEN m.tool_calls IS NULL THEN 0 WHEN pg_catalog.jsonb_typeof("
            + "m.tool_calls::jsonb) = 'array' THEN pg_catalog.jsonb_array_length(m.tool_calls::jsonb) ELSE 1 END";
    private static final List<String> SEARCH_INDEXES = List.of("idx_messages_content_tsv", "idx_messages_content_grams");
    private static final int NAMED = 5;

    private PostgresDoctor() {
    }

    private static String repairCommand(PostgresLocation database) {
        return "hermes-state --db postgresql://" + database.host() + ":" + database.port() + "/" + database.database()
                + " --schema " + database.schema() + " repair";
    }

    public static DoctorReport check(PostgresLocation database, RetryPolicy policy) {
        List<Finding> findings = new ArrayList<>();
        int version = 0;
        try (Connection connection = database.connect()) {
            connection.setReadOnly(true);
            version = check(connection, database, findings);
        } catch (SQLException failure) {
            throw PostgresErrors.translate(failure, "checking " + database);
        }
        return new DoctorReport(database.toString(), version, findings);
    }

    private static int check(Connection connection, PostgresLocation database, List<Finding> findings) throws SQLException {
        String schema = database.schema();
        execute(connection, "SET search_path TO " + quote(schema));
        long versionRow = longValue(connection, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = '"
                + schema.replace("'", "''") + "' AND tablename = 'schema_version'");
        if (versionRow == 0) {
            findings.add(Finding.error("schema.table", "schema " + schema, "no Hermes store in this schema", null));
            return 0;
        }
        int version = (int) longValue(connection, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
        int known = Math.max(1, Math.min(version, HermesSchema.newest()));
        findings.add(Finding.ok("schema.version", "schema " + schema, "version " + version));
        List<String> missing = SchemaDefinitions.missingOnPostgres(connection, schema, known);
        for (String object : missing) {
            boolean search = object.contains("content_tsv") || object.contains("content_grams");
            boolean index = object.startsWith("index ");
            findings.add(new Finding(search || !index ? Finding.Severity.ERROR : Finding.Severity.WARNING,
                    search ? (object.contains("grams") ? "fts.cjk" : "fts.tsvector") : index ? "schema.index" : "schema.column",
                    object, "missing at version " + known, "hermes-state --db ... --schema " + schema + " migrate"));
        }
        if (missing.isEmpty()) {
            findings.add(Finding.ok("schema.objects", "schema " + schema, "every table, column and index of version "
                    + known + " is there, the search columns and their indexes included"));
        }
        Map<String, String> expressions = SchemaDefinitions.postgresSearchExpressions(connection, schema);
        for (String column : List.of("content_tsv", "content_grams")) {
            String code = column.equals("content_tsv") ? "fts.tsvector" : "fts.cjk";
            String expression = expressions.get(column);
            if (expression == null) {
                continue;
            }
            long stale = longValue(connection, "SELECT count(*) FROM messages WHERE " + column
                    + " IS DISTINCT FROM (" + expression + ")");
            findings.add(stale == 0
                    ? Finding.ok(code, "messages." + column, "every row's search value matches its text")
                    : Finding.error(code, "messages." + column, stale + " rows hold a search value their text no longer"
                    + " gives (the function was replaced after they were written)", repairCommand(database)));
        }
        Set<String> messageColumns = columns(connection, schema);
        String counted = messageColumns.contains("compacted") ? " AND COALESCE(m.compacted, 0) = 0" : "";
        List<String> messageCount = new ArrayList<>();
        List<String> toolCallCount = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                "SELECT s.id, s.message_count, s.tool_call_count, (SELECT count(*) FROM messages m WHERE m.session_id = s.id"
                        + counted + "), (SELECT COALESCE(SUM(" + TOOL_CALLS + "), 0) FROM messages m WHERE m.session_id = s.id"
                        + counted + ") FROM sessions s")) {
            while (rows.next()) {
                if (rows.getObject(2) == null || rows.getLong(2) != rows.getLong(4)) {
                    messageCount.add(rows.getString(1) + " (" + rows.getObject(2) + ", rows " + rows.getLong(4) + ")");
                }
                if (rows.getObject(3) == null || rows.getLong(3) != rows.getLong(5)) {
                    toolCallCount.add(rows.getString(1) + " (" + rows.getObject(3) + ", rows " + rows.getLong(5) + ")");
                }
            }
        }
        counters("counters.message_count", "message_count", messageCount, database, findings);
        counters("counters.tool_call_count", "tool_call_count", toolCallCount, database, findings);
        long orphans = longValue(connection, "SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM sessions s"
                + " WHERE s.id = m.session_id)");
        findings.add(orphans == 0 ? Finding.ok("orphans.messages", "messages", "every message belongs to a session")
                : Finding.error("orphans.messages", orphans + " messages", "their sessions do not exist", null));
        Map<String, @Nullable String> parents = SessionParents.read(connection);
        List<String> dangling = SessionParents.dangling(parents);
        findings.add(dangling.isEmpty() ? Finding.ok("orphans.parents", "sessions.parent_session_id", "every parent exists")
                : Finding.warning("orphans.parents", dangling.size() + " sessions", "their parent does not exist: "
                + named(dangling), repairCommand(database)));
        List<List<String>> cycles = SessionParents.cycles(parents);
        findings.add(cycles.isEmpty() ? Finding.ok("orphans.cycles", "sessions.parent_session_id", "no cycle of parents")
                : Finding.error("orphans.cycles", cycles.size() + (cycles.size() == 1 ? " cycle" : " cycles"),
                "sessions that are their own ancestors: " + named(cycles.stream().map(Object::toString).toList()),
                repairCommand(database)));
        return version;
    }

    /** Recounts, clears dangling parents and cycles, rebuilds the search indexes when asked; one write transaction. */
    public static RepairReport repair(PostgresLocation database, boolean dryRun, RetryPolicy policy) {
        DoctorReport before = check(database, policy);
        List<String> codes = before.problemCodes();
        List<String> actions = new ArrayList<>();
        boolean recount = codes.contains("counters.message_count") || codes.contains("counters.tool_call_count");
        boolean parentsGone = codes.contains("orphans.parents");
        boolean cycles = codes.contains("orphans.cycles");
        boolean stale = before.problems().stream().anyMatch(f -> (f.code().equals("fts.tsvector")
                || f.code().equals("fts.cjk")) && f.subject().startsWith("messages."));
        if (parentsGone) {
            actions.add("clear the parent links to sessions that do not exist");
        }
        if (cycles) {
            actions.add("clear the parent link of each cycle's first session");
        }
        if (stale) {
            actions.add("recompute the search columns of the stale rows and rebuild their indexes");
        }
        if (recount) {
            actions.add("recount message_count and tool_call_count from the rows");
        }
        if (dryRun || actions.isEmpty()) {
            return new RepairReport(database.toString(), dryRun, null, actions, before, before);
        }
        String counted = before.schemaVersion() >= 16 ? " AND COALESCE(m.compacted, 0) = 0" : "";
        RetryPolicy shortWait = policy.withBusyTimeout(Duration.ofSeconds(2)).withMaxAttempts(1);
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            try {
                statement.execute(new PostgresBackend(database.schema(), shortWait).beginWrite());
            } catch (SQLException busy) {
                throw new BusyException("Another process holds the write lock on " + database + "; repair changed "
                        + "nothing. Run it again when the store is idle.", busy);
            }
            try {
                statement.execute("SET LOCAL search_path TO " + quote(database.schema()));
                if (parentsGone) {
                    statement.execute("UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IS NOT NULL"
                            + " AND NOT EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id)");
                }
                if (cycles) {
                    try (PreparedStatement update = connection.prepareStatement(
                            "UPDATE sessions SET parent_session_id = NULL WHERE id = ?")) {
                        for (List<String> cycle : SessionParents.cycles(SessionParents.read(connection))) {
                            update.setString(1, cycle.get(0));
                            update.executeUpdate();
                        }
                    }
                }
                if (stale) {
                    // a stored generated column is computed again when its row is written
                    statement.execute("UPDATE messages SET content = content");
                    for (String index : SEARCH_INDEXES) {
                        if (longValue(connection, "SELECT count(*) FROM pg_catalog.pg_indexes WHERE schemaname = "
                                + "current_schema() AND indexname = '" + index + "'") > 0) {
                            statement.execute("REINDEX INDEX " + index);
                        }
                    }
                }
                if (recount) {
                    String messages = "(SELECT count(*) FROM messages m WHERE m.session_id = sessions.id" + counted + ")";
                    String toolCalls = "(SELECT COALESCE(SUM(" + TOOL_CALLS + "), 0) FROM messages m WHERE m.session_id"
                            + " = sessions.id" + counted + ")";
                    statement.execute("UPDATE sessions SET message_count = " + messages + ", tool_call_count = " + toolCalls
                            + " WHERE message_count IS DISTINCT FROM " + messages + " OR tool_call_count IS DISTINCT FROM "
                            + toolCalls);
                }
                statement.execute("COMMIT");
            } catch (SQLException | RuntimeException failure) {
                statement.execute("ROLLBACK");
                throw failure;
            }
        } catch (SQLException failure) {
            throw PostgresErrors.translate(failure, "repairing " + database);
        }
        return new RepairReport(database.toString(), false, null, actions, before, check(database, policy));
    }

    private static void counters(String code, String column, List<String> sessions, PostgresLocation database,
                                 List<Finding> findings) {
        findings.add(sessions.isEmpty()
                ? Finding.ok(code, "sessions." + column, "every session's counter matches its rows")
                : Finding.warning(code, sessions.size() + (sessions.size() == 1 ? " session" : " sessions"),
                column + " differs from the rows: " + named(sessions), repairCommand(database)));
    }

    private static Set<String> columns(Connection connection, String schema) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name = 'messages'")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
        }
        return names;
    }

    private static String named(List<String> items) {
        String shown = String.join(", ", items.subList(0, Math.min(NAMED, items.size())));
        return items.size() > NAMED ? shown + " and " + (items.size() - NAMED) + " more" : shown;
    }

    private static long longValue(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
