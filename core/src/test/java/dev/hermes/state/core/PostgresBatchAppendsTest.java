package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * appendMessages on PostgreSQL, where a batch is one statement (the counters' update and every row
 * from one array per column): exactly the rows, ids and counters of the same messages appended one
 * by one, whatever the text holds, and all or nothing.
 */
class PostgresBatchAppendsTest {
    private static final Map<String, Object> CALL = Map.of("id", "call_7", "type", "function",
            "function", Map.of("name", "lookup", "arguments", "{\"q\": \"kestrel\"}"));
    private static final Instant T0 = Instant.parse("2026-03-10T09:00:00.123456Z");

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private StateRepository open(int version) {
        return StateRepository.builder().url(postgres.url()).schema(postgres.schema()).schemaVersion(version).build();
    }

    /** Every kind of value an append writes, each message with its own timestamp (so both ways store the same). */
    private static List<NewMessage> varied(boolean v17) {
        List<NewMessage> messages = new ArrayList<>();
        messages.add(NewMessage.builder("system").content("You answer about birds.").timestamp(T0).build());
        messages.add(NewMessage.builder("user").content("where does the kestrel nest?").timestamp(T0.plusMillis(1))
                .tokenCount(12L).build());
        NewMessage.Builder assistant = NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL)))
                .finishReason("tool_calls").reasoning("look it up").reasoningDetails(JsonValue.of(List.of(Map.of("type", "summary"))))
                .codexReasoningItems(JsonValue.of(List.of(Map.of("id", "r1")))).tokenCount(40L).timestamp(T0.plusMillis(2));
        if (v17) {
            assistant.reasoningContent("thinking about towers").codexMessageItems(JsonValue.of(List.of(Map.of("id", "m1"))))
                    .platformMessageId("tg-991").observed(true);
        }
        messages.add(assistant.build());
        messages.add(NewMessage.builder("tool").content("on the church tower").toolCallId("call_7").toolName("lookup")
                .timestamp(T0.plusMillis(3)).build());
        messages.add(NewMessage.builder("assistant").content((String) null).timestamp(T0.plusMillis(4)).build());
        if (v17) {
            messages.add(NewMessage.builder("user").content(new MessageContent.Structured(List.of(
                    Map.of("type", "text", "text", "look at this kestrel"),
                    Map.of("type", "image_url", "image_url", Map.of("url", "https://example.org/k.png")))))
                    .timestamp(T0.plusMillis(5)).build());
        }
        return messages;
    }

    /** Text an array literal or a parser could get wrong, in every column that holds text. */
    private static List<NewMessage> hostile() {
        List<String> texts = List.of("{\"a\",\"b\"}", "NULL", "null", "", " ", "a,b", "\\", "\\\\\"", "\"quoted\"",
                "{}", "{NULL}", "line\nbreak\ttab\r", "'; DROP TABLE messages; --", "ümlaut ß 鳥の巣 🦅 \u0001json:[1]",
                "x".repeat(100_000) + " kestrel", "(1,2)", "$1 ? ?? $$", "\u00a0nbsp");
        List<NewMessage> messages = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            messages.add(NewMessage.builder(i % 2 == 0 ? "user" : "assistant").content(text).toolName("tool_" + i)
                    .toolCallId("call_" + i).reasoning(text).finishReason("stop").timestamp(T0.plusSeconds(10).plusMillis(i)).build());
        }
        return messages;
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 17})
    void aBatchStoresExactlyWhatTheSameMessagesAppendedOneByOneStore(int version) throws SQLException {
        try (StateRepository store = open(version)) {
            List<NewMessage> messages = new ArrayList<>(varied(version == 17));
            messages.addAll(hostile());
            store.createSession("batch", "cli");
            store.createSession("single", "cli");
            List<Long> batchIds = store.appendMessages("batch", messages);
            List<Long> singleIds = new ArrayList<>();
            for (NewMessage message : messages) {
                singleIds.add(store.appendMessages("single", List.of(message)).get(0));
            }
            assertEquals(messages.size(), batchIds.size());
            assertAscending(batchIds);
            assertAscending(singleIds);
            assertTrue(batchIds.get(batchIds.size() - 1) < singleIds.get(0));
            assertEquals(rows("single"), rows("batch"));
            assertEquals(counters("single"), counters("batch"));
            assertEquals(List.of((long) messages.size(), 1L), counters("batch"));
            // the ids returned are the rows' own, in the batch's order
            assertEquals(batchIds, store.getMessages("batch", true).stream().map(m -> m.id()).toList());
            assertEquals(store.getMessages("single", true).stream().map(m -> m.text()).toList(),
                    store.getMessages("batch", true).stream().map(m -> m.text()).toList());
        }
    }

    @Test
    void hostileTextComesBackAsGivenAndIsSearchable() throws SQLException {
        try (StateRepository store = open(17)) {
            store.createSession("s", "cli");
            List<NewMessage> messages = hostile();
            List<Long> ids = store.appendMessages("s", messages);
            List<String> back = store.getMessages("s").stream().map(m -> m.text()).toList();
            assertEquals(messages.stream().map(m -> ((MessageContent.Text) m.content()).text()).toList(), back);
            List<SearchHit> hits = store.searchMessages(SearchQuery.of("kestrel"));
            assertEquals(List.of(ids.get(14)), hits.stream().map(SearchHit::id).toList());
        }
    }

    @Test
    void anEmptyBatchWritesNothing() throws SQLException {
        try (StateRepository store = open(17)) {
            store.createSession("s", "cli");
            store.appendMessage("s", NewMessage.of("user", "one"));
            List<List<Object>> before = rows("s");
            assertEquals(List.of(), store.appendMessages("s", List.of()));
            assertEquals(before, rows("s"));
            assertEquals(List.of(1L, 0L), counters("s"));
        }
    }

    @Test
    void aBatchToAnUnknownSessionOrFailingMidwayChangesNothing() throws SQLException {
        try (StateRepository store = open(17)) {
            store.createSession("s", "cli");
            store.appendMessages("s", List.of(NewMessage.of("user", "one"), NewMessage.of("assistant", "two")));
            List<List<Object>> before = rows("s");
            assertThrows(ConstraintViolationException.class,
                    () -> store.appendMessages("nobody", List.of(NewMessage.of("user", "a"), NewMessage.of("user", "b"))));
            assertEquals(0, count("SELECT count(*) FROM messages WHERE session_id = 'nobody'"));
            try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
                statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
                statement.execute("CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$BEGIN IF NEW.content = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END$$");
                statement.execute("CREATE TRIGGER refuse_boom BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_boom()");
            }
            long highWater = count("SELECT count(*) FROM messages");
            assertThrows(HermesStateException.class, () -> store.appendMessages("s", List.of(NewMessage.of("user", "three"),
                    NewMessage.of("assistant", "four"), NewMessage.of("user", "boom"), NewMessage.of("assistant", "five"))));
            assertEquals(before, rows("s"));
            assertEquals(List.of(2L, 0L), counters("s"));
            assertEquals(highWater, count("SELECT count(*) FROM messages"));
            assertEquals(0, store.searchMessages(SearchQuery.of("three")).size());
        }
    }

    private static void assertAscending(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i) > ids.get(i - 1), ids.toString());
        }
    }

    /** Every column of the session's rows but id and session_id (the search columns as text too), in id order. */
    private List<List<Object>> rows(String sessionId) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery("SELECT * FROM messages WHERE session_id = '" + sessionId
                    + "' ORDER BY id")) {
                ResultSetMetaData meta = result.getMetaData();
                while (result.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        String name = meta.getColumnName(c);
                        if (!name.equals("id") && !name.equals("session_id")) {
                            row.add(name + "=" + result.getString(c));
                        }
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private List<Long> counters(String sessionId) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            try (ResultSet result = statement.executeQuery("SELECT message_count, tool_call_count FROM sessions WHERE id = '"
                    + sessionId + "'")) {
                result.next();
                return List.of(result.getLong(1), result.getLong(2));
            }
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            try (ResultSet result = statement.executeQuery(sql)) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
