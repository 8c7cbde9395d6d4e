package dev.hermes.state.core;

import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@link ConversationWindowWritersContract} on a SQLite file, and the saves' rows against saves that never remember. */
class ConversationWindowWritersTest extends ConversationWindowWritersContract {

    @TempDir
    Path dir;
    private Path file;

    @BeforeEach
    void newFile() {
        file = TestStores.newDatabase(dir, Migrator.LATEST_VERSION);
    }

    @Override
    StateRepository open() {
        return open(file);
    }

    private static StateRepository open(Path file) {
        return StateRepository.builder().path(file).clock(new TestStores.TickingClock(TestStores.EPOCH, Duration.ofMillis(1)))
                .schemaVersion(Migrator.LATEST_VERSION).build();
    }

    @Override
    Connection plainConnection() throws SQLException {
        return SqliteFiles.readWrite(file);
    }

    private static final Map<String, Object> CALL = Map.of("id", "call_1", "type", "function",
            "function", Map.of("name", "lookup", "arguments", "{\"n\": 1}"));

    /** A message of one of the kinds a memory saves, chosen by {@code n}: text of every sort, tool calls and results, structured content. */
    private static NewMessage message(int n) {
        return switch (n % 7) {
            case 0 -> NewMessage.of("user", "where is the kestrel nest? " + n);
            case 1 -> NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL))).build();
            case 2 -> NewMessage.builder("tool").content("on the tower " + n).toolCallId("call_1").toolName("lookup").build();
            case 3 -> NewMessage.of("assistant", "NUL \u0000 inside, 鳥の巣 🦅, \"quoted\" " + n);
            case 4 -> NewMessage.builder("user").content(new MessageContent.Structured(List.of(
                    Map.of("type", "text", "text", "look at this " + n),
                    Map.of("type", "image_url", "image_url", Map.of("url", "https://example.org/k.png"))))).build();
            case 5 -> NewMessage.builder("assistant").content((String) null).build();
            default -> NewMessage.of("user", "\u0000json:[1] is text here " + n);
        };
    }

    /**
     * The same saves, as a framework makes them (a system message first, the window trimmed from the
     * front and extended, now and then a dropped message taken back or a window saved unchanged), on
     * two files: through one store, which starts each save from the window its last one left, and
     * through a new store for every save, which always reads it. Every save answers the same, and both
     * files hold the same rows after each.
     */
    @Test
    void aSequenceOfSavesLeavesExactlyTheRowsOfSavesThatReadTheWindowEveryTime() throws Exception {
        Path other = Files.createDirectory(dir.resolve("fresh-every-time"));
        Path reference = TestStores.newDatabase(other, Migrator.LATEST_VERSION);
        Random random = new Random(20261203);
        List<WindowEntry> window = new ArrayList<>(List.of(WindowEntry.fresh(NewMessage.of("system", "Be terse."))));
        List<WindowEntry> dropped = new ArrayList<>();
        int n = 0;
        try (StateRepository store = open()) {
            for (int save = 0; save < 60; save++) {
                List<WindowEntry> next = new ArrayList<>(window);
                int roll = random.nextInt(10);
                if (roll == 0 && !dropped.isEmpty()) {
                    // the newest dropped message back before the kept ones (after the system message)
                    next.add(1, dropped.remove(dropped.size() - 1));
                } else if (roll != 1) {   // 1: saved unchanged
                    for (int drop = random.nextInt(3); drop > 0 && next.size() > 2; drop--) {
                        dropped.add(next.remove(1));
                    }
                    for (int add = 1 + random.nextInt(3); add > 0; add--) {
                        next.add(WindowEntry.fresh(message(n++)));
                    }
                }
                SavedWindow remembered = store.saveConversationWindow("c", "spring-ai", next);
                SavedWindow reread;
                try (StateRepository once = open(reference)) {
                    reread = once.saveConversationWindow("c", "spring-ai", next);
                }
                assertEquals(reread, remembered, "save " + save);
                assertFalse(remembered.continuedInChild(), "save " + save);
                assertEquals(rows(reference), rows(file), "save " + save);
                window = new ArrayList<>();
                for (int i = 0; i < next.size(); i++) {
                    window.add(WindowEntry.stored(remembered.messageIds().get(i), next.get(i).message()));
                }
                try (StateRepository reading = open()) {
                    assertEquals(remembered.messageIds(), reading.loadConversationWindow("c").stream()
                            .map(dev.hermes.state.core.model.Message::id).toList(), "save " + save);
                }
            }
        }
    }

    /** Every row a save writes or changes, without the times (the two files' clocks read differently). */
    private static List<List<List<Object>>> rows(Path db) throws SQLException {
        return List.of(
                SqliteFiles.rows(db, "SELECT session_id, position, message_id FROM hermes_state_window_message"
                        + " ORDER BY session_id, position"),
                SqliteFiles.rows(db, "SELECT session_id, session_started_at IS NOT NULL FROM hermes_state_window ORDER BY session_id"),
                SqliteFiles.rows(db, "SELECT id, session_id, role, content, tool_call_id, tool_name, tool_calls, active"
                        + " FROM messages ORDER BY id"),
                SqliteFiles.rows(db, "SELECT id, source, parent_session_id, message_count, tool_call_count, end_reason"
                        + " FROM sessions ORDER BY id"));
    }
}
