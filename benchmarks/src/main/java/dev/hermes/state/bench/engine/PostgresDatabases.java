package dev.hermes.state.bench.engine;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.bench.data.SearchCases;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.bench.raw.PostgresRawStore;
import dev.hermes.state.bench.raw.RawStore;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.postgresql.PostgresLocation;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The run's databases as schemas of one PostgreSQL database: the main store in the base schema (a
 * fresh {@code hermes_bench_<random>} unless named), every other place in {@code <base>_<place>}.
 * A schema that already exists is refused, so that a run never touches a user's data; every schema
 * the run created is dropped on closing unless kept.
 */
public final class PostgresDatabases implements RunDatabases {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String url;
    private final PostgresLocation server;
    private final String base;
    private final boolean keep;
    private final PrintStream progress;
    /** What every store of the run is created at (6 or 17). */
    private final int schemaVersion;
    private final Set<String> created = new LinkedHashSet<>();

    private PostgresDatabases(String url, PostgresLocation server, String base, boolean keep, int schemaVersion,
                              PrintStream progress) {
        this.url = url;
        this.schemaVersion = schemaVersion;
        this.server = server;
        this.base = base;
        this.keep = keep;
        this.progress = progress;
    }

    /**
     * Checks the URL and the schema name (null: a fresh random one) and that the base schema does not
     * exist yet; nothing is created before the first place is opened.
     *
     * @throws InvalidArgumentException a bad URL or schema name, or a schema that exists already
     */
    public static PostgresDatabases open(String url, @Nullable String schema, boolean keep, int schemaVersion, PrintStream progress) {
        String base = schema != null ? schema : "hermes_bench_" + HexFormat.of().formatHex(RANDOM.generateSeed(4));
        PostgresLocation server = PostgresLocation.parse(url).withSchema(base);
        PostgresDatabases databases = new PostgresDatabases(url, server, base, keep, schemaVersion, progress);
        for (String place : List.of(MAIN, "raw", "batch", "raw_batch", "lineage")) {
            PostgresLocation.checkSchema(databases.schema(place));
        }
        if (databases.exists(base)) {
            throw new InvalidArgumentException("Schema " + base + " already exists in " + server
                    + ": the benchmark writes only into schemas it creates (name a new one with --schema, or drop it)");
        }
        return databases;
    }

    /** The schema of a place: the base for the main store, {@code <base>_<place>} for the others. */
    public String schema(String place) {
        return MAIN.equals(place) ? base : base + "_" + place.replace('-', '_');
    }

    private PostgresLocation location(String place) {
        return server.withSchema(schema(place));
    }

    @Override
    public String engine() {
        return "postgresql";
    }

    @Override
    public String target(String place) {
        return StoreTarget.withSchema(url, schema(place));
    }

    @Override
    public List<String> commandOptions(String place) {
        return List.of("--db", url, "--schema", schema(place), "--schema-version", String.valueOf(schemaVersion));
    }

    @Override
    public String describe() {
        return server.toString();
    }

    @Override
    public StateRepository openStore(String place) {
        claim(place);
        return BenchObservation.apply(StateRepository.builder().url(url).schema(schema(place)).schemaVersion(schemaVersion)).build();
    }

    @Override
    public RawStore openRaw(String place, int checkpointEvery) throws SQLException {
        claim(place);
        Migrator.create().toVersion(schemaVersion).migrate(location(place));
        return PostgresRawStore.open(location(place));
    }

    @Override
    public Connection plainConnection(String place, boolean readOnly) throws SQLException {
        Connection connection = PostgresRawStore.connect(location(place));
        connection.setReadOnly(readOnly);
        return connection;
    }

    @Override
    public long dbBytes(String place) {
        try (Connection plain = server.connect();
             PreparedStatement size = plain.prepareStatement("SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0) "
                     + "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                     + "WHERE n.nspname = ? AND c.relkind IN ('r', 'm')")) {
            size.setString(1, schema(place));
            try (ResultSet rows = size.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    @Override
    public long walBytes(String place) {
        return 0;
    }

    @Override
    public Map<String, Long> matchCounts(String place) throws SQLException {
        try (Connection plain = plainConnection(place, true)) {
            return PostgresRawStore.countMatches(plain, SearchCases.ALL.stream().map(SearchCases.SearchCase::query).toList());
        }
    }

    /** content_tsv is a generated column: it must equal messages_content_tsv(content) on every row. */
    @Override
    public boolean searchIndexIntact(Connection plain) {
        try (Statement statement = plain.createStatement()) {
            // from schema 11 on the column indexes content, tool name and tool calls, as the agent's FTS5 tables do
            String indexed = schemaVersion > Migrator.KEPT_VERSION
                    ? "COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '')" : "content";
            return SqliteDatabases.number(statement, "SELECT count(*) FROM messages "
                    + "WHERE content_tsv IS DISTINCT FROM messages_content_tsv(" + indexed + ")") == 0;
        } catch (SQLException failed) {
            return false;
        }
    }

    /** PostgreSQL keeps dead rows' space for reuse without saying how much (VACUUM's business). */
    @Override
    public long freeBytes(Connection plain) {
        return 0;
    }

    @Override
    public Map<String, Object> environment() throws SQLException {
        Map<String, Object> env = new LinkedHashMap<>();
        try (Connection plain = server.connect(); Statement statement = plain.createStatement()) {
            env.put("server_version", SqliteDatabases.text(statement, "SHOW server_version"));
            env.put("target", describe());
            env.put("synchronous_commit", SqliteDatabases.text(statement, "SHOW synchronous_commit"));
            env.put("fsync", SqliteDatabases.text(statement, "SHOW fsync"));
        }
        return env;
    }

    @Override
    public String engineVersion() throws SQLException {
        try (Connection plain = server.connect(); Statement statement = plain.createStatement()) {
            return "PostgreSQL " + SqliteDatabases.text(statement, "SHOW server_version");
        }
    }

    /** Drops every schema the run created (unless kept), saying which on the progress stream. */
    @Override
    public void close() {
        if (created.isEmpty()) {
            return;
        }
        if (keep) {
            progress.println("[bench] kept schemas " + String.join(", ", created) + " in " + server);
            return;
        }
        List<String> failed = new ArrayList<>();
        try (Connection plain = server.connect(); Statement statement = plain.createStatement()) {
            for (String schema : created) {
                try {
                    statement.execute("DROP SCHEMA IF EXISTS \"" + PostgresLocation.checkSchema(schema) + "\" CASCADE");
                } catch (SQLException e) {
                    failed.add(schema + " (" + e.getMessage() + ")");
                }
            }
        } catch (SQLException | RuntimeException e) {
            failed.add("all: " + e.getMessage());
        }
        if (!failed.isEmpty()) {
            progress.println("[bench] could not drop schemas: " + String.join(", ", failed));
        }
    }

    /** A place's schema is the run's from now on (dropped at the end); it must not exist before. */
    private void claim(String place) {
        String schema = schema(place);
        if (created.contains(schema)) {
            return;
        }
        if (exists(schema)) {
            throw new InvalidArgumentException("Schema " + schema + " already exists in " + server
                    + ": the benchmark writes only into schemas it creates");
        }
        created.add(schema);
    }

    private boolean exists(String schema) {
        try (Connection plain = server.connect();
             PreparedStatement query = plain.prepareStatement("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
            query.setString(1, schema);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw dev.hermes.state.postgresql.PostgresErrors.translate(e, "looking for schema " + schema + " in " + server);
        }
    }
}
