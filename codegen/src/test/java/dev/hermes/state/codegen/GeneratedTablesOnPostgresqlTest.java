package dev.hermes.state.codegen;

import dev.hermes.state.db.tables.records.MessagesRecord;
import dev.hermes.state.db.tables.records.SessionsRecord;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.conf.ParamCastMode;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.HERMES_STATE_WINDOW;
import static dev.hermes.state.db.Tables.HERMES_STATE_WINDOW_MESSAGE;
import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS;
import static dev.hermes.state.db.Tables.SCHEMA_VERSION;
import static dev.hermes.state.db.Tables.SESSIONS;
import static dev.hermes.state.db.Tables.MESSAGES_FTS_TRIGRAM;
import static dev.hermes.state.db.Tables.COMPRESSION_LOCKS;
import static dev.hermes.state.db.Tables.STATE_META;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classes generated from the SQLite schema, used on a store that PostgreSQL's changelog built:
 * the server's catalog holds the same columns, and jOOQ with {@link SQLDialect#POSTGRES} writes and
 * reads every one of them. The generated tables carry no schema; a connection finds the store's
 * tables through its search path.
 */
class GeneratedTablesOnPostgresqlTest {
    /** The PostgreSQL type each generated (SQL) type is stored as; JSON stays text, byte for byte. */
    private static final Map<String, String> STORED_AS = Map.of(
            "clob", "text", "json", "text", "bigint", "bigint", "double", "double precision");

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private Connection connection;
    private DSLContext dsl;

    @BeforeEach
    void migrate() throws SQLException {
        Migrator.create().migrate(PostgresLocation.parse(postgres.url()).withSchema(postgres.schema()));
        connection = postgres.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO " + postgres.schema());
        }
        dsl = DSL.using(connection, SQLDialect.POSTGRES);
    }

    @AfterEach
    void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    void theCatalogHasTheGeneratedColumnsWithTheirNullabilityAndCompatibleTypes() throws SQLException {
        for (Table<?> table : List.of(SESSIONS, MESSAGES, SCHEMA_VERSION, STATE_META, COMPRESSION_LOCKS, HERMES_STATE_WINDOW,
                HERMES_STATE_WINDOW_MESSAGE)) {
            List<String> catalog = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT column_name, data_type, is_nullable,"
                    + " column_default IS NOT NULL OR is_identity = 'YES' FROM information_schema.columns"
                    + " WHERE table_schema = ? AND table_name = ? AND column_name NOT IN ('content_tsv', 'content_grams', 'rowid')"
                    + " ORDER BY ordinal_position")) {
                query.setString(1, postgres.schema());
                query.setString(2, table.getName());
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        catalog.add(rows.getString(1) + " " + rows.getString(2) + ("YES".equals(rows.getString(3)) ? ""
                                : " NOT NULL") + (rows.getBoolean(4) ? " DEFAULT" : ""));
                    }
                }
            }
            List<String> generated = new ArrayList<>();
            for (Field<?> field : table.fields()) {
                // SQLite lets a TEXT PRIMARY KEY hold NULL, so the class says nullable; PostgreSQL's key cannot
                boolean notNull = !field.getDataType().nullable()
                        || table.getPrimaryKey() != null && table.getPrimaryKey().getFields().contains(field);
                generated.add(field.getName() + " " + STORED_AS.get(field.getDataType().getSQLDataType().getTypeName())
                        + (notNull ? " NOT NULL" : "") + (field.getDataType().defaulted() || field.getDataType().identity()
                        ? " DEFAULT" : ""));
            }
            assertEquals(generated, catalog, table.getName());
        }
        assertEquals(List.of("content_grams", "content_tsv", "rowid"), strings("SELECT column_name FROM information_schema.columns WHERE table_schema = ?"
                + " AND table_name IN ('sessions', 'messages', 'schema_version') AND column_name NOT IN (" + String.join(",", names(SESSIONS, MESSAGES, SCHEMA_VERSION))
                + ") ORDER BY 1"),
                "PostgreSQL's search columns and sessions' insertion order (SQLite's implicit rowid) are its only columns the classes do not know");
        assertEquals(List.of("compression_locks", "databasechangelog", "databasechangeloglock", "hermes_state_window",
                        "hermes_state_window_message", "messages", "schema_version", "sessions", "state_meta"),
                strings("SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'"
                        + " ORDER BY 1"),
                "the classes' " + MESSAGES_FTS.getName() + " and " + MESSAGES_FTS_TRIGRAM.getName() + " (FTS5) are SQLite's alone");
    }

    @Test
    void jooqWritesAndReadsEveryColumnExactly() {
        Instant startedAt = Instant.ofEpochSecond(1773133200, 123456000);
        SessionsRecord session = dsl.newRecord(SESSIONS)
                .setId("s1").setSource("cli").setUserId("u1").setModel("anthropic/claude-sonnet-4")
                .setModelConfig(JSON.json("{\"temperature\":0.2,  \"max_tokens\": 4096}")).setSystemPrompt("You are Hermes.")
                .setStartedAt(startedAt).setEndedAt(startedAt.plusSeconds(90)).setEndReason("user_exit")
                .setMessageCount(2L).setToolCallCount(1L).setInputTokens(1200L).setOutputTokens(340L).setTitle("Postgres 迁移")
                .setCacheReadTokens(50L).setCacheWriteTokens(7L).setReasoningTokens(12L).setBillingProvider("anthropic")
                .setBillingBaseUrl("https://api.example.org").setBillingMode("metered").setEstimatedCostUsd(0.012345678901234)
                .setActualCostUsd(0.1 + 0.2).setCostStatus("final").setCostSource("provider").setPricingVersion("2026-03")
                .setApiCallCount(3L).setHandoffState("pending").setHandoffPlatform("discord").setHandoffError(null)
                .setCwd("/home/astro").setRewindCount(1L).setArchived(true).setGitBranch("main").setGitRepoRoot("/home/astro")
                .setSessionKey("agent:main:telegram:group:-100:77").setChatId("-100").setChatType("group").setThreadId("77")
                .setCompressionFailureCooldownUntil(startedAt.plusSeconds(300)).setCompressionFailureError("HTTP 529");
        session.store();
        MessagesRecord message = dsl.newRecord(MESSAGES)
                .setSessionId("s1").setRole("assistant").setContent("Rolled back. 数据库迁移已回滚 🙂")
                .setToolCallId("call_1").setToolCalls(JSON.json("[{\"id\": \"call_1\", \"type\": \"function\"}]"))
                .setToolName("shell").setTimestamp(startedAt.plusNanos(1_000)).setTokenCount(42L).setFinishReason("stop")
                .setReasoning("first check the lock").setReasoningDetails(JSON.json("[{\"type\":\"reasoning.text\"}]"))
                .setCodexReasoningItems(JSON.json("[]")).setReasoningContent("").setCodexMessageItems(JSON.json("[{}]"))
                .setPlatformMessageId("4101").setObserved(true).setActive(false).setCompacted(true);
        message.store();
        assertEquals(1L, message.getId(), "the identity column's value comes back");

        assertEquals(session, dsl.selectFrom(SESSIONS).fetchOne());
        assertEquals(message, dsl.selectFrom(MESSAGES).fetchOne());
        assertEquals(startedAt.plusNanos(1_000), dsl.select(MESSAGES.TIMESTAMP).from(MESSAGES).fetchOne().value1());
        assertEquals(0.1 + 0.2, dsl.select(SESSIONS.ACTUAL_COST_USD).from(SESSIONS).fetchOne().value1());
        assertEquals(1, dsl.insertInto(SCHEMA_VERSION).set(SCHEMA_VERSION.VERSION, 7L).execute());
        assertEquals(List.of(7L, 17L), dsl.select(SCHEMA_VERSION.VERSION).from(SCHEMA_VERSION).orderBy(1).fetch().getValues(0));
    }

    /**
     * jOOQ binds an org.jooq.JSON value on PostgreSQL as {@code cast(? as json)}: fine for JSON text
     * (json keeps the text as written, and json to text gives it back unchanged), but the JSON columns
     * are text and may hold what the Python agent wrote that is not JSON. Two ways bind such values as
     * plain text, and leave SQLite's mapping alone (there jOOQ binds JSON as {@code json(?)}).
     */
    @Test
    void jsonValuesAreBoundAsJsonUnlessBoundAsText() {
        dsl.insertInto(SESSIONS).set(SESSIONS.ID, "s1").set(SESSIONS.SOURCE, "cli").set(SESSIONS.STARTED_AT, Instant.EPOCH).execute();
        String spaced = "{\"b\":1,  \"a\" : 2, \"b\": 3}";
        assertEquals("update \"sessions\" set \"model_config\" = cast(? as json)",
                dsl.update(SESSIONS).set(SESSIONS.MODEL_CONFIG, JSON.json(spaced)).getSQL());
        dsl.update(SESSIONS).set(SESSIONS.MODEL_CONFIG, JSON.json(spaced)).execute();
        assertEquals(spaced, dsl.select(SESSIONS.MODEL_CONFIG).from(SESSIONS).fetchOne().value1().data());

        String notJson = "{'temperature': 0.2}";
        assertEquals("22P02", sqlState(assertThrows(DataAccessException.class,
                () -> dsl.update(SESSIONS).set(SESSIONS.MODEL_CONFIG, JSON.json(notJson)).execute())),
                "invalid input syntax for type json");
        assertEquals("42883", sqlState(assertThrows(DataAccessException.class,
                () -> dsl.selectFrom(SESSIONS).where(SESSIONS.MODEL_CONFIG.eq(JSON.json(spaced))).fetch())),
                "operator does not exist: text = json");

        // 1: a text parameter coerced to JSON (what core's statements do) renders a plain bind on both dialects
        var text = DSL.param("text", SQLDataType.CLOB);
        dsl.update(SESSIONS).set(SESSIONS.MODEL_CONFIG, text.coerce(SQLDataType.JSON)).bind("text", notJson).execute();
        assertEquals(notJson, dsl.select(SESSIONS.MODEL_CONFIG).from(SESSIONS)
                .where(SESSIONS.MODEL_CONFIG.eq(text.coerce(SQLDataType.JSON))).bind("text", notJson).fetchOne().value1().data());
        // 2: no casts of bind values at all: JSON values travel as text
        DSLContext noCasts = DSL.using(connection, SQLDialect.POSTGRES, new Settings().withParamCastMode(ParamCastMode.NEVER));
        noCasts.update(SESSIONS).set(SESSIONS.MODEL_CONFIG, JSON.json(notJson + " ")).execute();
        assertEquals(notJson + " ", noCasts.select(SESSIONS.MODEL_CONFIG).from(SESSIONS)
                .where(SESSIONS.MODEL_CONFIG.eq(JSON.json(notJson + " "))).fetchOne().value1().data());

        assertEquals("update sessions set model_config = json(?)",
                DSL.using(SQLDialect.SQLITE).update(SESSIONS).set(SESSIONS.MODEL_CONFIG, JSON.json(spaced)).getSQL());
    }

    private static String sqlState(DataAccessException failure) {
        return assertInstanceOf(SQLException.class, failure.getCause()).getSQLState();
    }

    private static List<String> names(Table<?>... tables) {
        List<String> names = new ArrayList<>();
        for (Table<?> table : tables) {
            for (Field<?> field : table.fields()) {
                names.add("'" + field.getName() + "'");
            }
        }
        return names;
    }

    private List<String> strings(String sql) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, postgres.schema());
            try (ResultSet rows = query.executeQuery()) {
                List<String> values = new ArrayList<>();
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
                return values;
            }
        }
    }
}
