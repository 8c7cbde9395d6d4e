package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.SessionParents;
import dev.hermes.state.BusyException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.core.model.RepairReport;
import dev.hermes.state.migrations.SchemaDefinitions;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteConnections;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code hermes-state repair} on a SQLite file: mends what the doctor found that can be mended without
 * losing a row (full-text indexes refilled from the messages, counters recounted, missing triggers and
 * indexes created with the version's own statements, indexes rebuilt from their tables, sessions given
 * back to orphaned messages, parent links to nowhere and cycles cleared). Never deletes a message. All
 * changes run in one write transaction taken before anything else, after a page-for-page copy of the
 * file beside it; a file whose b-trees are damaged is not written at all (that is {@code recover}'s).
 */
public final class SqliteRepair {
    /** How long repair waits for the write lock before it refuses: a writer's transaction is short. */
    private static final Duration LOCK_WAIT = Duration.ofSeconds(2);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    /** Findings that mean the file itself is damaged: writing on top could spread the damage. */
    private static final Set<String> UNWRITABLE = Set.of("file.readable", "file.open", "file.integrity",
            "file.truncated", "wal.foreign");

    /** One step: its statements, or ({@code breaksCycles}) the cycles of parents read under the lock. */
    private record Action(String description, List<String> statements, boolean breaksCycles) {
        Action(String description, List<String> statements) {
            this(description, statements, false);
        }
    }

    private SqliteRepair() {
    }

    /** Repairs {@code file} (or, with {@code dryRun}, says what it would do and changes nothing). */
    public static RepairReport repair(Path file, boolean dryRun, RetryPolicy policy, Clock clock) {
        Path absolute = file.toAbsolutePath();
        DoctorReport before = SqliteDoctor.check(absolute, policy);
        List<Finding> unwritable = before.problems().stream().filter(f -> UNWRITABLE.contains(f.code())).toList();
        if (!unwritable.isEmpty()) {
            throw new StateIOException(absolute + " is damaged (" + unwritable.get(0).code() + ": "
                    + unwritable.get(0).detail() + "); repair does not write on a damaged file. Nothing was changed. "
                    + "Salvage it into a new file: " + SqliteDoctor.recoverCommand(absolute));
        }
        List<Action> plan = plan(before);
        boolean checkpoint = before.problemCodes().contains("wal.size");
        List<String> described = new ArrayList<>(plan.stream().map(Action::description).toList());
        if (checkpoint) {
            described.add("checkpoint the log into the file and truncate it");
        }
        if (dryRun || described.isEmpty()) {
            return new RepairReport(absolute.toString(), dryRun, null, described, before, before);
        }
        RetryPolicy shortWait = policy.withBusyTimeout(LOCK_WAIT).withMaxAttempts(1);
        String backup;
        try (Connection writer = SqliteConnections.open(absolute, shortWait, false)) {
            lock(writer, absolute);
            try {
                backup = backUp(absolute, shortWait, clock);
                try (Statement statement = writer.createStatement()) {
                    for (Action action : plan) {
                        if (action.breaksCycles()) {
                            breakCycles(writer);
                        }
                        for (String sql : action.statements()) {
                            statement.execute(sql);
                        }
                    }
                }
                execute(writer, "COMMIT");
            } catch (SQLException | RuntimeException failure) {
                rollbackQuietly(writer);
                throw failure;
            }
            if (checkpoint) {
                execute(writer, "PRAGMA wal_checkpoint(TRUNCATE)");
            }
        } catch (SQLException failure) {
            throw SqliteErrors.FAILURES.translate(failure, "repairing " + absolute);
        }
        return new RepairReport(absolute.toString(), false, backup, described, before, SqliteDoctor.check(absolute, policy));
    }

    private static void lock(Connection writer, Path file) throws SQLException {
        try {
            execute(writer, "BEGIN IMMEDIATE");
        } catch (SQLException busy) {
            if (SqliteErrors.FAILURES.isRetryable(busy)) {
                throw new BusyException("Another process holds the write lock on " + file + " (an agent or another "
                        + "hermes-state writing now); repair changed nothing. Run it again when the store is idle.", busy);
            }
            throw busy;
        }
    }

    /** A page-for-page copy of the file (its committed state, taken under our write lock), owner-only. */
    private static String backUp(Path file, RetryPolicy policy, Clock clock) throws SQLException {
        Path backup = Path.of(file + ".bak-" + STAMP.format(clock.instant()));
        try {
            try {
                Files.createFile(backup, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(backup);
            }
        } catch (FileAlreadyExistsException exists) {
            throw new StateIOException("The backup " + backup + " already exists; repair changed nothing. Try again in a second.");
        } catch (IOException e) {
            throw new StateIOException("Cannot create the backup " + backup + " beside the file: " + e.getMessage()
                    + "; repair changed nothing", e);
        }
        try (Connection reader = SqliteConnections.open(file, policy, true); Statement statement = reader.createStatement()) {
            statement.executeUpdate("backup to " + backup);
        }
        return backup.toString();
    }

    private static List<Action> plan(DoctorReport before) {
        int version = Math.max(1, Math.min(before.schemaVersion(), dev.hermes.state.migrations.HermesSchema.newest()));
        List<Action> plan = new ArrayList<>();
        Set<String> codes = new LinkedHashSet<>(before.problemCodes());
        if (codes.contains("orphans.messages")) {
            plan.add(new Action("give each orphaned message's session id a session again (source 'recovered')",
                    List.of("INSERT INTO sessions (id, source, started_at) SELECT m.session_id, 'recovered', MIN(m.timestamp) "
                            + "FROM messages m WHERE m.session_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sessions s "
                            + "WHERE s.id = m.session_id) GROUP BY m.session_id")));
        }
        if (codes.contains("orphans.parents")) {
            plan.add(new Action("clear the parent links to sessions that do not exist", List.of(
                    "UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IS NOT NULL AND NOT EXISTS "
                            + "(SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id)")));
        }
        for (Finding finding : before.problems()) {
            String name = finding.subject().substring(finding.subject().indexOf(' ') + 1);
            switch (finding.code()) {
                case "orphans.cycles" -> plan.add(new Action("clear the parent link of each cycle's first session",
                        List.of(), true));
                case "schema.index", "fts.table" -> SchemaDefinitions.create(version, name).ifPresent(sql ->
                        plan.add(new Action("create " + finding.subject() + " as version " + version + " defines it",
                                List.of(sql))));
                case "fts.trigger" -> SchemaDefinitions.create(version, name).ifPresent(sql ->
                        plan.add(new Action("create " + finding.subject() + " as version " + version + " defines it",
                                List.of("DROP TRIGGER IF EXISTS " + name, sql))));
                case "index.integrity" -> plan.add(new Action("rebuild " + finding.subject() + " from its table",
                        List.of("REINDEX " + name)));
                default -> { }
            }
        }
        // only the indexes concerned: rebuilding one costs a pass over every message
        Set<String> concerned = new LinkedHashSet<>();
        for (Finding finding : before.problems()) {
            String name = finding.subject().substring(finding.subject().indexOf(' ') + 1);
            switch (finding.code()) {
                case "fts.trigger" -> concerned.add(name.replaceFirst("_(insert|delete|update)$", ""));
                case "fts.rows" -> concerned.add(name);
                case "fts.integrity", "fts.table" -> concerned.add(name);
                default -> { }
            }
        }
        for (String table : SqliteDoctor.fullTextTables(version)) {
            if (!concerned.contains(table)) {
                continue;
            }
            List<String> statements = new ArrayList<>();
            java.util.Optional<String> fill = SchemaDefinitions.fill(version, table);
            // FTS5 rebuilds the index from its text first: deleting rows needs a sound index (a trigram index an
            // older SQLite wrote over structured content is not one to 3.54, see SqliteDoctor)
            statements.add("INSERT INTO " + table + "(" + table + ") VALUES ('rebuild')");
            fill.ifPresent(sql -> {
                statements.add("DELETE FROM " + table);
                statements.add(sql);
            });
            plan.add(new Action("rebuild the full-text index " + table + " from the messages", statements));
        }
        if (codes.contains("counters.message_count") || codes.contains("counters.tool_call_count")
                || codes.contains("orphans.messages")) {
            plan.add(new Action("recount message_count and tool_call_count from the rows", List.of(recount(version))));
        }
        return plan;
    }

    /** Sets every session's counters that differ from its rows (the agent's own rules, see {@link SqliteDoctor}). */
    static String recount(int version) {
        if (version < SqliteDoctor.FIRST_TOOL_CALL_RULE) {
            String counted = "(SELECT count(*) FROM messages m WHERE m.session_id = sessions.id)";
            return "UPDATE sessions SET message_count = " + counted + " WHERE message_count IS NOT " + counted;
        }
        boolean compacted = dev.hermes.state.migrations.HermesSchema.at(version).messageColumns().contains("compacted");
        String counted = compacted ? " AND COALESCE(m.compacted, 0) = 0" : "";
        String messages = "(SELECT count(*) FROM messages m WHERE m.session_id = sessions.id" + counted + ")";
        String toolCalls = "(SELECT COALESCE(SUM(" + SqliteDoctor.TOOL_CALLS + "), 0) FROM messages m "
                + "WHERE m.session_id = sessions.id" + counted + ")";
        return "UPDATE sessions SET message_count = " + messages + ", tool_call_count = " + toolCalls
                + " WHERE message_count IS NOT " + messages + " OR tool_call_count IS NOT " + toolCalls;
    }

    /** Clears one parent link of each cycle, read under the write lock. */
    static void breakCycles(Connection connection) throws SQLException {
        Map<String, @Nullable String> parents = SessionParents.read(connection);
        try (var update = connection.prepareStatement("UPDATE sessions SET parent_session_id = NULL WHERE id = ?")) {
            for (List<String> cycle : SessionParents.cycles(parents)) {
                update.setString(1, cycle.get(0));
                update.executeUpdate();
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            execute(connection, "ROLLBACK");
        } catch (SQLException alreadyEnded) {
            // SQLite ended the transaction itself
        }
    }
}
