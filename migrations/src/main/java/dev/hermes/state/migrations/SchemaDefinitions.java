package dev.hermes.state.migrations;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements that create each named object of Hermes' SQLite schema at a version, taken from the
 * changelog files themselves: a store's doctor compares a file with {@link HermesSchema}'s names, and
 * its repair creates what is missing with the very statement a migration would have run, so the DDL
 * lives in one place only (the {@code vN.sql} files). The latest definition at or below the version
 * wins (version 11 redefines the full-text tables and triggers).
 */
public final class SchemaDefinitions {
    private static final Pattern CHANGESET = Pattern.compile("^--changeset\\s+\\S+", Pattern.MULTILINE);
    private static final Pattern CREATE = Pattern.compile(
            "^CREATE\\s+(?:UNIQUE\\s+)?(?:VIRTUAL\\s+)?(?:INDEX|TRIGGER|TABLE)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?\"?(\\w+)\"?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern FILL = Pattern.compile("^INSERT\\s+INTO\\s+(\\w+)\\s*\\(rowid,", Pattern.CASE_INSENSITIVE);

    /** Per version, the object name to its CREATE statement, and a full-text table to the statement that fills it. */
    private static final Map<Integer, Map<String, String>> CREATES = new HashMap<>();
    private static final Map<Integer, Map<String, String>> FILLS = new HashMap<>();

    static {
        for (int version = 1; version <= HermesSchema.newest(); version++) {
            Map<String, String> creates = new HashMap<>();
            Map<String, String> fills = new HashMap<>();
            for (String statement : statements("v" + version + ".sql")) {
                Matcher create = CREATE.matcher(statement);
                if (create.find()) {
                    creates.put(create.group(1), statement);
                }
                Matcher fill = FILL.matcher(statement);
                if (fill.find()) {
                    fills.put(fill.group(1), statement);
                }
            }
            CREATES.put(version, creates);
            FILLS.put(version, fills);
        }
    }

    private SchemaDefinitions() {
    }

    /** The statement that creates {@code name} (a table, index or trigger) in a store at {@code version}; empty if none does. */
    public static Optional<String> create(int version, String name) {
        return latest(CREATES, version, name);
    }

    /**
     * The statement that fills the full-text table {@code table} from {@code messages} in a store at
     * {@code version}, for tables that keep their own text (version 11 on); empty for a table that reads
     * its text from {@code messages} (versions 1 to 10), which FTS5's {@code 'rebuild'} command refills.
     */
    public static Optional<String> fill(int version, String table) {
        return latest(FILLS, version, table);
    }

    /**
     * What of Hermes' schema at {@code version} the SQLite database behind {@code connection} lacks,
     * read without writing: {@code "table X"}, {@code "index X"}, {@code "trigger X"}, {@code "sessions.C"},
     * {@code "messages.C"}, and from version 11 on a full-text table or trigger in an earlier form as
     * {@code "table X in version 11's form"} / {@code "trigger X in version 11's form"}.
     */
    public static List<String> missing(Connection connection, int version) throws SQLException {
        return FileInspection.of(connection).missingHermesObjects(version);
    }

    /**
     * What of Hermes' schema at {@code version} the PostgreSQL {@code schema} lacks (the search columns
     * and indexes that stand for FTS5 included, with their version-11 form), read from the catalog.
     */
    public static List<String> missingOnPostgres(Connection connection, String schema, int version) throws SQLException {
        return SchemaInspection.of(connection, schema).missingObjects(version);
    }

    /** What each of messages' generated search columns of PostgreSQL {@code schema} is computed from, by column. */
    public static Map<String, String> postgresSearchExpressions(Connection connection, String schema) throws SQLException {
        return SchemaInspection.of(connection, schema).searchExpressions();
    }

    private static Optional<String> latest(Map<Integer, Map<String, String>> byVersion, int version, String name) {
        for (int v = Math.min(version, HermesSchema.newest()); v >= 1; v--) {
            String statement = byVersion.getOrDefault(v, Map.of()).get(name);
            if (statement != null) {
                return Optional.of(statement);
            }
        }
        return Optional.empty();
    }

    /** The statements of one changelog file: each changeset's text without its comment lines. */
    @SuppressWarnings("StringSplitter") // dropping the trailing blank lines of a statement is what we want
    private static List<String> statements(String file) {
        String text = read(Changelog.RESOURCE_FOLDER + file);
        List<String> statements = new ArrayList<>();
        Matcher changeSet = CHANGESET.matcher(text);
        List<Integer> starts = new ArrayList<>();
        while (changeSet.find()) {
            starts.add(changeSet.start());
        }
        for (int i = 0; i < starts.size(); i++) {
            String body = text.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : text.length());
            StringBuilder sql = new StringBuilder();
            for (String line : body.split("\n")) {
                if (!line.startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            String statement = sql.toString().strip();
            if (!statement.isEmpty()) {
                statements.add(statement);
            }
        }
        return statements;
    }

    private static String read(String resource) {
        try (InputStream in = SchemaDefinitions.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing changelog resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
