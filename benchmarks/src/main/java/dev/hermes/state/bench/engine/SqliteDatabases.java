package dev.hermes.state.bench.engine;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.bench.data.MatchCounts;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.raw.RawJdbcStore;
import dev.hermes.state.bench.raw.RawStore;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.sqlite.SqliteConnections;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The run's databases as SQLite files {@code <place>.db} in the run's folder (which the benchmark
 * deletes), the main store there too unless a file is named for it.
 */
public final class SqliteDatabases implements RunDatabases {
    private final Path folder;
    private final @Nullable Path mainFile;
    private final int schemaVersion;

    /**
     * {@code mainFile}: the main store's file, null for {@code state.db} in {@code folder};
     * {@code schemaVersion}: what every store of the run is created at (6 or 17).
     */
    public SqliteDatabases(Path folder, @Nullable Path mainFile, int schemaVersion) {
        this.folder = folder;
        this.mainFile = mainFile;
        this.schemaVersion = schemaVersion;
    }

    public Path file(String place) {
        return MAIN.equals(place) && mainFile != null ? mainFile : folder.resolve(place + ".db");
    }

    @Override
    public String engine() {
        return "sqlite";
    }

    @Override
    public String target(String place) {
        return file(place).toString();
    }

    @Override
    public List<String> commandOptions(String place) {
        return List.of("--db", target(place), "--schema-version", String.valueOf(schemaVersion));
    }

    @Override
    public String describe() {
        return file(MAIN).toString();
    }

    @Override
    public StateRepository openStore(String place) {
        return BenchObservation.apply(StateRepository.builder().path(file(place)).schemaVersion(schemaVersion)).build();
    }

    /**
     * A new, empty file at the run's version: a copy of one file migrated once per run (starting Liquibase costs
     * seconds), made by SQLite ({@code VACUUM INTO}), never with Java I/O on a database file.
     */
    @Override
    public RawStore openRaw(String place, int checkpointEvery) throws SQLException {
        Path template = folder.resolve("baseline-template.db");
        if (!Files.exists(template)) {
            Migrator.create().toVersion(schemaVersion).migrate(template);
        }
        Path copy = file(place);
        try (Connection connection = SqliteConnections.open(template, RetryPolicy.HERMES, true);
             PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
            vacuum.setString(1, copy.toAbsolutePath().toString());
            vacuum.execute();
        }
        return RawJdbcStore.open(copy, checkpointEvery);
    }

    @Override
    public Connection plainConnection(String place, boolean readOnly) throws SQLException {
        return SqliteConnections.open(file(place), RetryPolicy.HERMES, readOnly);
    }

    @Override
    public long dbBytes(String place) {
        return Report.sizeOrZero(file(place));
    }

    @Override
    public long walBytes(String place) {
        Path db = file(place);
        return Report.sizeOrZero(db.resolveSibling(db.getFileName() + "-wal"));
    }

    @Override
    public Map<String, Long> matchCounts(String place) throws SQLException {
        return MatchCounts.inDatabase(file(place));
    }

    @Override
    public boolean searchIndexIntact(Connection plain) {
        try (Statement statement = plain.createStatement()) {
            statement.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')");
            if (schemaVersion > Migrator.KEPT_VERSION) {
                statement.execute("INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES('integrity-check')");
            }
            return true;
        } catch (SQLException corrupt) {
            return false;
        }
    }

    @Override
    public long freeBytes(Connection plain) throws SQLException {
        try (Statement statement = plain.createStatement()) {
            return number(statement, "PRAGMA freelist_count") * number(statement, "PRAGMA page_size");
        }
    }

    @Override
    public Map<String, Object> environment() throws SQLException {
        Map<String, Object> env = new LinkedHashMap<>();
        try (Connection plain = plainConnection(MAIN, true); Statement statement = plain.createStatement()) {
            env.put("sqlite", text(statement, "SELECT sqlite_version()"));
            env.put("journal_mode", text(statement, "PRAGMA journal_mode"));
        }
        // the store's own setting, read on its writer connection
        try (StateRepository store = openStore(MAIN)) {
            Object synchronous = store.inWriteTransaction(dsl -> dsl.fetchValue("PRAGMA synchronous"));
            env.put("synchronous", switch (String.valueOf(synchronous)) {
                case "0" -> "OFF";
                case "1" -> "NORMAL";
                case "2" -> "FULL";
                case "3" -> "EXTRA";
                default -> String.valueOf(synchronous);
            });
        }
        return env;
    }

    @Override
    public String engineVersion() throws SQLException {
        try (Connection plain = plainConnection(MAIN, true); Statement statement = plain.createStatement()) {
            return "SQLite " + text(statement, "SELECT sqlite_version()");
        }
    }

    /** Nothing: the files live in the run's folder, which the benchmark deletes (or keeps). */
    @Override
    public void close() {
    }

    static String text(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    static long number(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
