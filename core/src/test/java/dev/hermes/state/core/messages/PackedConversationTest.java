package dev.hermes.state.core.messages;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packed conversation read (SQLite packs a session's rows into one value: {@link PackedRows}) gives
 * exactly the row-by-row read's answer: for every session of the agent's files, and for rows with
 * hostile values (NUL and control characters, every plane of Unicode, bytes that are not UTF-8, BLOBs,
 * numbers in text columns, large texts, NULL and empty columns, timestamps the packing cannot carry).
 */
class PackedConversationTest {
    private static final List<ConversationOptions> OPTIONS = List.of(ConversationOptions.DEFAULT,
            new ConversationOptions(false, true), new ConversationOptions(true, false), new ConversationOptions(true, true));

    @TempDir
    Path dir;

    @AfterEach
    void packAgain() {
        Messages.packing = true;
    }

    /** Every file of the agent, opened as it is (read-write at its own schema) and migrated to 17. */
    static List<Arguments> fixtures() {
        List<Arguments> arguments = new ArrayList<>();
        for (String fixture : Fixtures.NAMES) {
            arguments.add(Arguments.of(fixture, false));
            arguments.add(Arguments.of(fixture, true));
        }
        return arguments;
    }

    /** Every session's conversation, under every option, read packed and then row by row. */
    private static Map<String, List<ChatMessage>> conversations(StateRepository store, List<String> sessions, boolean packed) {
        Messages.packing = packed;
        Map<String, List<ChatMessage>> read = new LinkedHashMap<>();
        for (String session : sessions) {
            for (ConversationOptions options : OPTIONS) {
                read.put(session + " " + options, store.getMessagesAsConversation(session, options));
            }
        }
        return read;
    }

    private static List<String> sessions(Path file) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT id FROM sessions UNION SELECT session_id FROM messages ORDER BY 1")) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        ids.add("no such session");
        return ids;
    }

    @ParameterizedTest(name = "{0} at 17 {1}")
    @MethodSource("fixtures")
    void everySessionOfTheAgentsFilesReadsAsRowByRow(String fixture, boolean at17) throws SQLException {
        Path copy = Fixtures.copy(fixture, dir);
        List<String> sessions = sessions(copy);
        StateRepository.Builder builder = StateRepository.builder().path(copy);
        try (StateRepository store = at17 ? builder.schemaVersion(17).build() : builder.build()) {
            long before = Messages.PACKED_READS.sum();
            Map<String, List<ChatMessage>> packed = conversations(store, sessions, true);
            long packedReads = Messages.PACKED_READS.sum() - before;
            Map<String, List<ChatMessage>> rows = conversations(store, sessions, false);
            assertEquals(rows, packed);
            if (at17) {
                assertTrue(packedReads >= sessions.size(), "the packed read was taken: " + packedReads);
            }
        }
    }

    @Test
    void hostileValuesReadAsRowByRow() throws SQLException {
        Path file = dir.resolve("hostile.db");
        try (StateRepository store = StateRepository.builder().path(file).build()) {
            store.createSession("hostile", "cli");
            store.createSession("random", "cli");
            store.createSession("odd timestamps", "cli");
            store.createSession("blob", "cli");
            store.createSession("empty", "cli");
        }
        StringBuilder large = new StringBuilder();
        while (large.length() < 3_000_000) {
            large.append("large \u00e9\u4e2d\ud83d\ude00 text\n\"quoted\" \\ back ");
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement insert = connection.prepareStatement("INSERT INTO messages (session_id, role, content,"
                     + " tool_call_id, tool_calls, tool_name, timestamp, finish_reason, reasoning, reasoning_content,"
                     + " reasoning_details, codex_reasoning_items, codex_message_items, platform_message_id, observed)"
                     + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            Object[][] hostile = {
                    {"user", "a\u0000b NUL inside, \u0001\u001f\u007f controls, \t\r\n whitespace", 1733270400.1234567},
                    {"user", "\u0000json:[{\"type\": \"text\", \"text\": \"structured \u00e9\"}]", 1733270401.0},
                    {"user", "\u0000json:not json", 1733270402.5},
                    {"user", "\u0000json:\"a JSON string\"", 1733270403.25},
                    {"user", "\u0000json:null", 1733270404.0},
                    {"assistant", "\ud834\udd1e clef, \u4e2d\u6587, \u05e2\u05d1\u05e8\u05d9\u05ea, e\u0301 combining,"
                            + " \ufeff BOM, \u2028 separators \u2029", 1.7e9},
                    {"assistant", "", 2.0e9},
                    {"assistant", null, 2147483647.999999},
                    {"user", large.toString(), 1733270405.0},
                    {"tool", "  <memory-context>recalled</memory-context> padded  ", 1733270406.0},
                    {"user", "Review the conversation above and consider saving to memory", 1733270407.0},
                    {"assistant", "dropped with the review", 1733270408.0},
                    {"system", "a system turn", 1733270409.0},
            };
            for (int i = 0; i < hostile.length; i++) {
                boolean full = i % 2 == 0;
                insert.setString(1, "hostile");
                insert.setString(2, (String) hostile[i][0]);
                insert.setString(3, (String) hostile[i][1]);
                insert.setString(4, full ? "call_\u0000" + i : i == 1 ? "" : null);
                insert.setString(5, full ? "[{\"id\": \"call_" + i + "\", \"function\": {\"name\": \"f\u00e9\"}}]"
                        : i == 3 ? "not json" : i == 5 ? "" : null);
                insert.setString(6, full ? "tool \u00e9" : null);
                insert.setDouble(7, (Double) hostile[i][2]);
                insert.setString(8, full ? "stop" : i == 5 ? "" : null);
                insert.setString(9, full ? "thinking \u0000 aloud" : null);
                insert.setString(10, full ? "" : i == 7 ? "content of reasoning" : null);
                insert.setString(11, full ? "[{\"type\": \"reasoning.text\"}]" : i == 5 ? "{not json" : null);
                insert.setString(12, full ? "[]" : null);
                insert.setString(13, full ? "[{\"x\": 1}]" : i == 5 ? "" : null);
                insert.setString(14, full ? "1250000000000000002" : null);
                insert.setLong(15, i % 3 == 0 ? 1 : 0);
                insert.executeUpdate();
            }
            Random random = new Random(17);
            for (int i = 0; i < 300; i++) {
                insert.setString(1, "random");
                insert.setString(2, List.of("user", "assistant", "tool", "system").get(random.nextInt(4)));
                for (int column = 3; column <= 14; column++) {
                    if (column == 7) {
                        continue;
                    }
                    insert.setString(column, random.nextInt(4) == 0 ? null : randomText(random));
                }
                insert.setDouble(7, 1.1e9 + random.nextDouble() * 1.0e9);
                insert.setLong(15, random.nextInt(3));
                insert.executeUpdate();
            }
            try (Statement statement = connection.createStatement()) {
                // values the packing carries by their text, or not at all (then the session is read row by row)
                statement.executeUpdate("INSERT INTO messages (session_id, role, content, tool_name, timestamp) VALUES"
                        + " ('odd timestamps', 'user', 'tiny', NULL, 0.1),"
                        + " ('odd timestamps', 'user', 'integer', NULL, 1733270400),"
                        + " ('odd timestamps', 'user', 'zero', NULL, 0),"
                        + " ('odd timestamps', 'user', 'negative', NULL, -12.5),"
                        + " ('odd timestamps', 'user', 'far', NULL, 1.0e15)");
                statement.executeUpdate("INSERT INTO messages (session_id, role, content, tool_name, tool_call_id,"
                        + " timestamp, observed) VALUES"
                        + " ('blob', 'assistant', x'61ff62c3', x'00e9', 'id', 1733270400.5, 2),"
                        + " ('blob', 'user', CAST(x'c3a9' AS TEXT), 'tool', x'', 1733270401.5, 0)");
                statement.executeUpdate("INSERT INTO messages (session_id, role, content, timestamp, active) VALUES"
                        + " ('hostile', 'user', 'inactive', 1733270500.0, 0)");
            }
        }
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            List<String> sessions = List.of("hostile", "random", "odd timestamps", "blob", "empty", "unknown");
            Map<String, Long> packedReads = new LinkedHashMap<>();
            Map<String, List<ChatMessage>> packed = new LinkedHashMap<>();
            for (String session : sessions) {
                long before = Messages.PACKED_READS.sum();
                packed.putAll(conversations(store, List.of(session), true));
                packedReads.put(session, Messages.PACKED_READS.sum() - before);
            }
            Map<String, List<ChatMessage>> rows = conversations(store, sessions, false);
            assertEquals(rows, packed);
            assertEquals(13, packed.get("hostile " + ConversationOptions.DEFAULT).size() + 2, "the review turn left out");
            assertEquals(300, packed.get("random " + ConversationOptions.DEFAULT).size());
            // under every option (each session is its own chain); the timestamps 0.1 and 1e15 are not packed
            assertEquals(Map.of("hostile", 4L, "random", 4L, "odd timestamps", 0L, "blob", 4L, "empty", 4L, "unknown", 4L),
                    packedReads);
        }
    }

    @Test
    void textInATimestampIsReadRowByRow() throws SQLException {
        Path file = dir.resolve("text-timestamp.db");
        try (StateRepository store = StateRepository.builder().path(file).build()) {
            store.createSession("s", "cli");
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO messages (session_id, role, content, timestamp, observed) VALUES"
                    + " ('s', 'user', 'a', 'not a number', 'yes'), ('s', 'user', 'b', '1733270400.25', 1)");
        }
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            List<String> sessions = List.of("s");
            Map<String, List<ChatMessage>> packed = conversations(store, sessions, true);
            assertEquals(conversations(store, sessions, false), packed);
            assertEquals(2, packed.get("s " + ConversationOptions.DEFAULT).size());
        }
    }

    /** Text of any code point (lone surrogates included: they reach the file as the driver encodes them). */
    private static String randomText(Random random) {
        int length = random.nextInt(5) == 0 ? 0 : random.nextInt(200);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(6);
            int codePoint = switch (kind) {
                case 0 -> random.nextInt(0x20);
                case 1 -> 0x20 + random.nextInt(0x60);
                case 2 -> 0x80 + random.nextInt(0x780);
                case 3 -> 0x800 + random.nextInt(0xF800);
                case 4 -> 0x10000 + random.nextInt(0x100000);
                default -> "\"\\:;,0123456789n".charAt(random.nextInt(16));
            };
            text.appendCodePoint(codePoint);
        }
        String built = text.toString();
        // the same text through UTF-8 and back, so that what the test sends is what the file holds
        return new String(built.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
}
