package dev.hermes.state.core.messages;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.backend.Backend.PackedKind;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.backend.sqlite.SqliteBackend;
import dev.hermes.state.core.connection.TestTransactions;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packed reads of a session's rows (SQLite builds one value holding them all, {@link PackedRows}
 * decodes it) against the same reads row by row: every column's value as the driver reads it (a
 * text's string, an integer and whether it was NULL, a double's very bits) and the records built from
 * them, on every fixture file and on rows holding every odd value SQLite can store.
 */
class PackedRowsTest {
    private static final SqliteBackend BACKEND = new SqliteBackend(RetryPolicy.HERMES);
    private static final List<ConversationOptions> OPTIONS = List.of(new ConversationOptions(false, false),
            new ConversationOptions(false, true), new ConversationOptions(true, false), new ConversationOptions(true, true));

    @TempDir
    Path dir;

    static List<String> fixtures() {
        return Fixtures.NAMES;
    }

    /** The files a store reads as they are (read-only): those with the columns of version 6. */
    static List<String> readableAsTheyAre() {
        List<String> names = new ArrayList<>(List.of("state-v6.db"));
        names.addAll(Fixtures.NAMES_V7_TO_V17);
        return names;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readableAsTheyAre")
    void everyFixtureReadsTheSamePackedAsRowByRow(String fixture) throws Exception {
        Path copy = Fixtures.copy(fixture, dir);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + copy)) {
            int rows = assertSameReads(connection);
            assertTrue(rows > 0, fixture + " has messages to compare");
        }
    }

    @ParameterizedTest(name = "{0} migrated to 17")
    @MethodSource("fixtures")
    void everyFixtureMigratedReadsTheSamePackedAsRowByRow(String fixture) throws Exception {
        Path copy = Fixtures.copy(fixture, dir);
        StateRepository.builder().path(copy).schemaVersion(17).build().close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + copy)) {
            assertTrue(assertSameReads(connection) > 0, fixture + " has messages to compare");
        }
    }

    @ParameterizedTest(name = "schema {0}")
    @ValueSource(ints = {6, 17})
    void oddValuesReadTheSamePackedAsRowByRow(int version) throws Exception {
        Path file = dir.resolve("odd-" + version + ".db");
        StateRepository.builder().path(file).schemaVersion(version).build().close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            writeOddRows(connection, version == 17);
            assertTrue(assertSameReads(connection) > 200);
            // the odd values are really there, as written
            try (Statement statement = connection.createStatement();
                 ResultSet types = statement.executeQuery("SELECT count(DISTINCT typeof(content)), "
                         + "count(DISTINCT typeof(timestamp)), count(DISTINCT typeof(token_count)) FROM messages")) {
                types.next();
                assertEquals(List.of(3, 3, 5), List.of(types.getInt(1), types.getInt(2), types.getInt(3)));
            }
        }
    }

    @Test
    void manyDoublesComeBackBitForBit() throws Exception {
        Path file = dir.resolve("doubles.db");
        StateRepository.builder().path(file).schemaVersion(17).build().close();
        List<Double> written = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            session(connection, "doubles");
            SplittableRandom random = new SplittableRandom(20261202);
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('doubles', 'user', 'x', ?)")) {
                for (int i = 0; i < 20_000; i++) {
                    double value = switch (i % 4) {
                        case 0 -> Double.longBitsToDouble(random.nextLong()); // any bit pattern
                        case 1 -> 1.7e9 + random.nextDouble() * 1e8; // time.time()
                        case 2 -> Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024)); // every exponent
                        default -> Math.nextAfter(Math.pow(10, random.nextInt(-300, 300)), random.nextBoolean() ? 0 : 1e308);
                    };
                    if (Double.isNaN(value)) {
                        continue; // SQLite stores NaN as NULL
                    }
                    insert.setDouble(1, value);
                    insert.addBatch();
                    written.add(value);
                }
                insert.executeBatch();
            }
            connection.commit();
            connection.setAutoCommit(true);
            Transaction transaction = TestTransactions.over(connection);
            List<List<Object>> packed = new Messages(BACKEND, true).read(transaction, Messages.Read.OF_SESSION, "doubles",
                    row -> values(row, MessageRows.KINDS));
            assertEquals(written.size(), packed.size());
            for (int i = 0; i < written.size(); i++) {
                assertEquals(Double.doubleToRawLongBits(written.get(i)), packed.get(i).get(7),
                        "the timestamp of row " + i + ": " + written.get(i));
            }
            assertSameReads(connection);
        }
    }

    /** Compares every packed read with its row-by-row read for each session of the file (and an unknown one); returns the rows compared. */
    private static int assertSameReads(Connection connection) throws SQLException {
        Transaction transaction = TestTransactions.over(connection);
        Messages packed = new Messages(BACKEND, true);
        Messages rowByRow = new Messages(BACKEND, false);
        boolean v17 = transaction.schema().v17();
        List<Messages.Read> reads = v17
                ? List.of(Messages.Read.OF_SESSION, Messages.Read.OF_SESSION_ALL, Messages.Read.CONVERSATION,
                Messages.Read.CONVERSATION_ALL)
                : List.of(Messages.Read.OF_SESSION, Messages.Read.OF_SESSION_ALL, Messages.Read.CONVERSATION_V6);
        List<String> sessions = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet ids = statement.executeQuery("SELECT id FROM sessions ORDER BY id")) {
            while (ids.next()) {
                sessions.add(ids.getString(1));
            }
        }
        sessions.add("no-such-session");
        int compared = 0;
        for (String session : sessions) {
            for (Messages.Read read : reads) {
                List<List<Object>> expected = rowByRow.read(transaction, read, session, row -> values(row, read.kinds));
                List<List<Object>> actual = packed.read(transaction, read, session, row -> values(row, read.kinds));
                assertEquals(expected, actual, read + " of " + session);
                compared += expected.size();
            }
            for (boolean includeInactive : List.of(false, true)) {
                assertEquals(rowByRow.of(transaction, session, includeInactive), packed.of(transaction, session, includeInactive),
                        "get_messages of " + session);
            }
            for (ConversationOptions options : OPTIONS) {
                assertEquals(rowByRow.conversation(transaction, session, options),
                        packed.conversation(transaction, session, options), "conversation " + options + " of " + session);
            }
        }
        return compared;
    }

    /** Every column of the row as the driver reads it: the string, the integer or null, the double's bits. */
    private static List<Object> values(StoredRow row, List<PackedKind> kinds) throws SQLException {
        List<Object> values = new ArrayList<>();
        for (int column = 1; column <= kinds.size(); column++) {
            switch (kinds.get(column - 1)) {
                case TEXT -> {
                    String text = row.text(column);
                    values.add(text == null ? "<NULL>" : "text:" + text);
                }
                case INTEGER -> {
                    long value = row.integer(column);
                    values.add(row.wasNull() ? "<NULL>" : value);
                }
                case REAL -> values.add(Double.doubleToRawLongBits(row.real(column)));
            }
        }
        return values;
    }

    private static void session(Connection connection, String id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', 1.7e9)")) {
            insert.setString(1, id);
            insert.executeUpdate();
        }
    }

    /**
     * Sessions whose rows hold what SQLite can store in each column the reads read: NULL and '' apart,
     * NULs inside text, bytes that are not UTF-8 (a lone surrogate as Python's surrogatepass writes it,
     * truncated sequences), BLOBs and numbers in text columns, texts and BLOBs in the timestamp and the
     * integer columns, the extremes of both number types, long texts, and rows hidden or not.
     */
    private static void writeOddRows(Connection connection, boolean v17) throws SQLException {
        session(connection, "odd");
        session(connection, "empty");
        session(connection, "one");
        String[] texts = {"NULL", "''", "'plain'", "'h\u00e9llo w\u00f6rld \u4e2d\u6587 \ud83d\ude00'", "CAST(X'00' AS TEXT)",
                "CAST(X'610062000063' AS TEXT)", "CAST(X'EDA080' AS TEXT)", "CAST(X'EDB080ED' AS TEXT)", "CAST(X'C3' AS TEXT)",
                "CAST(X'FFFE' AS TEXT)", "X''", "X'00FF10'", "X'68656C6C6F'", "42", "-7.25",
                "9223372036854775807", "'" + "\u00fcber ".repeat(40_000) + "'", "char(0, 0, 0)", "'N'", "'12:ab'",
                "'3:abc,N'", "char(0) || 'json:{\"a\": 1}'", "CAST(char(0) || 'json:[1, 2' AS TEXT)", "'[{\"id\": \"c1\"}]'"};
        // REAL affinity: a number is stored as a REAL; a text that is no number and a BLOB stay as they are
        String[] timestamps = {"1.7e9", "1712000000.123456789", "0.1", "-0.0", "0", "4.9e-324", "1.7976931348623157e308",
                "9e999", "-9e999", "1712000000", "'1712000000.5'", "'not a time'", "'  12.5e3xyz'", "X'31'", "X''",
                "9223372036854775807", "-9223372036854775808", "2.2250738585072014e-308"};
        String[] integers = {"NULL", "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775808", "3.7", "-3.7",
                "1e300", "'12abc'", "'x'", "''", "X'3132'", "'  42  '", "9.2233720368547758e18"};
        String[] flags = {"0", "1", "NULL", "2", "'1'", "'yes'", "0.5", "X'01'"}; // compacted and active are NOT NULL
        List<String> rows = new ArrayList<>();
        String columns = v17
                ? "session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, "
                + "reasoning, reasoning_content, reasoning_details, codex_reasoning_items, codex_message_items, "
                + "platform_message_id, observed, active, compacted"
                : "session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, "
                + "reasoning, reasoning_details, codex_reasoning_items";
        String[] roles = {"'user'", "'assistant'", "'tool'", "'system'", "''", "CAST(X'00' AS TEXT)"};
        int row = 0;
        for (int round = 0; round < 3; round++) {
            for (int t = 0; t < texts.length; t++, row++) {
                List<String> values = new ArrayList<>(List.of("'odd'", roles[row % roles.length], texts[t],
                        texts[(t + 1) % texts.length], texts[(t + 2) % texts.length], texts[(t + 3) % texts.length],
                        timestamps[row % timestamps.length], integers[row % integers.length], texts[(t + 5) % texts.length],
                        texts[(t + 7) % texts.length]));
                if (v17) {
                    values.addAll(List.of(texts[(t + 11) % texts.length], texts[(t + 13) % texts.length],
                            texts[(t + 17) % texts.length], texts[(t + 19) % texts.length], texts[(t + 23) % texts.length],
                            flags[row % flags.length], round == 1 && row % 3 == 0 ? "0" : flags[(row / 2) % 2 == 0 ? 1 : 4],
                            flags[(row + 3) % flags.length].equals("NULL") ? "7" : flags[(row + 3) % flags.length]));
                } else {
                    values.addAll(List.of(texts[(t + 11) % texts.length], texts[(t + 13) % texts.length]));
                }
                rows.add("(" + String.join(", ", values) + ")");
            }
        }
        for (String timestamp : timestamps) {
            rows.add(v17 ? "('one', 'user', 'hi', NULL, NULL, NULL, " + timestamp + ", NULL, NULL, NULL, NULL, NULL, NULL, "
                    + "NULL, NULL, NULL, 1, 0)"
                    : "('one', 'user', 'hi', NULL, NULL, NULL, " + timestamp + ", NULL, NULL, NULL, NULL, NULL)");
        }
        try (Statement statement = connection.createStatement()) {
            for (String values : rows) {
                statement.executeUpdate("INSERT INTO messages (" + columns + ") VALUES " + values);
            }
        }
    }
}
