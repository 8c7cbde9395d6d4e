package dev.hermes.state.it.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Appends run together on PostgreSQL (they share the store's write lock), every other write alone:
 * three JVM processes append (single messages, batches, token accounting) while a fourth creates,
 * titles, ends, deletes and prunes sessions of its own, titles the appenders' sessions and deletes a
 * session this JVM keeps appending to. Nothing may be lost, every counter must equal its rows, no
 * write may fail but the appends to the deleted session, which must fail typed and leave nothing.
 */
class PostgresMixedWritesTest {
    private static final String DOOMED = "doomed";
    private static final int MAINTENANCE_ROUNDS = 30;
    private static final Duration DOOMED_LIMIT = Duration.ofMinutes(5);

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private final List<ChildProcess> children = new ArrayList<>();

    @AfterEach
    void closeChildren() {
        children.forEach(ChildProcess::close);
    }

    @Test
    void appendersAndAMaintainerWriteAtOnce() throws Exception {
        List<String> writers = List.of("process0", "process1", "process2");
        List<String> titled = new ArrayList<>();
        for (String writer : writers) {
            for (int s = 0; s < AppendWorkload.SESSIONS; s++) {
                titled.add(new AppendWorkload(writer, ContentionTest.ROUNDS).session(s));
            }
        }
        try (StateRepository store = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            store.createSession(DOOMED, "cli");
            List<ChildProcess> appenders = new ArrayList<>();
            for (String writer : writers) {
                appenders.add(start(Command.java(ContentionWriterChild.class, postgres.url(), writer,
                        String.valueOf(ContentionTest.ROUNDS), postgres.schema())));
            }
            List<String> maintenanceArgs = new ArrayList<>(List.of(postgres.url(), postgres.schema(),
                    String.valueOf(MAINTENANCE_ROUNDS), DOOMED));
            maintenanceArgs.addAll(titled);
            ChildProcess maintenance = start(Command.java(MaintenanceWriterChild.class, maintenanceArgs.toArray(String[]::new)));
            CompletableFuture<Integer> doomedAppends = CompletableFuture.supplyAsync(() -> appendUntilDeleted(store));
            appenders.forEach(child -> child.send("GO"));
            maintenance.send("GO");

            for (ChildProcess appender : appenders) {
                String result = ContentionTest.finish(appender);
                assertTrue(result.startsWith("DONE "), result);
            }
            String maintained = ContentionTest.finish(maintenance);
            assertTrue(maintained.startsWith("DONE "), maintained);
            doomedAppends.get(DOOMED_LIMIT.toMinutes(), TimeUnit.MINUTES); // the doomed session's appender ended

            assertEquals(ContentionTest.checkSessions(store, writers, new AppendWorkload("any", ContentionTest.ROUNDS)),
                    store.messageCount(null) - maintenanceRows(store), "the appenders' rows, nothing lost or duplicated");
            for (int i = 0; i < titled.size(); i++) {
                int lastRound = lastRoundTitling(i, titled.size());
                assertEquals(MaintenanceWriterChild.title(lastRound), store.getSessionTitle(titled.get(i)).orElse(null),
                        "title of " + titled.get(i));
            }
            assertFalse(store.getSession(DOOMED).isPresent(), "the doomed session is gone");
            assertEquals(0, store.messageCount(DOOMED), "no row of the doomed session survives");
        }
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT (SELECT sum(message_count) FROM \"" + postgres.schema()
                     + "\".sessions) = (SELECT count(*) FROM \"" + postgres.schema() + "\".messages)")) {
            rows.next();
            assertTrue(rows.getBoolean(1), "the counters add up to the rows");
        }
    }

    private ChildProcess start(Command command) {
        ChildProcess child = command.start();
        children.add(child);
        ContentionTest.expectLine(child, "READY");
        return child;
    }

    /**
     * Appends to the doomed session, one message then a batch of two, until it is deleted; then
     * checks that both kinds of append fail typed. Returns how many calls succeeded before.
     */
    private static int appendUntilDeleted(StateRepository store) {
        long deadline = System.nanoTime() + DOOMED_LIMIT.toNanos();
        int appended = 0;
        while (System.nanoTime() < deadline) {
            try {
                if (appended % 2 == 0) {
                    store.appendMessage(DOOMED, NewMessage.of("user", "to the doomed session " + appended));
                } else {
                    store.appendMessages(DOOMED, List.of(NewMessage.of("assistant", "batch " + appended + " a"),
                            NewMessage.of("assistant", "batch " + appended + " b")));
                }
                appended++;
            } catch (ConstraintViolationException deleted) {
                assertEquals("Cannot append to session 'doomed': no such session", deleted.getMessage());
                ConstraintViolationException batch = assertThrows(
                        ConstraintViolationException.class, () -> store.appendMessages(DOOMED,
                                List.of(NewMessage.of("user", "late a"), NewMessage.of("user", "late b"))));
                assertEquals("Cannot append to session 'doomed': no such session", batch.getMessage());
                return appended;
            }
        }
        throw new AssertionError("the doomed session was never deleted");
    }

    /** The rows of the maintainer's sessions that are left, each checked: two messages, counted, titled. */
    private static long maintenanceRows(StateRepository store) {
        long rows = 0;
        for (int round = 0; round < MAINTENANCE_ROUNDS; round++) {
            String id = MaintenanceWriterChild.session(round);
            Session session = store.getSession(id).orElse(null);
            List<Message> messages = store.getMessages(id);
            if (session == null) {
                assertEquals(List.of(), messages, "rows of the deleted " + id);
                continue;
            }
            assertEquals(2, messages.size(), "rows of " + id);
            assertEquals(2, session.messageCount(), "message_count of " + id);
            assertEquals("maintenance " + round, session.title(), "title of " + id);
            rows += messages.size();
        }
        return rows;
    }

    /** The last maintenance round that titled the {@code index}th of {@code count} titled sessions. */
    private static int lastRoundTitling(int index, int count) {
        int last = index;
        while (last + count < MAINTENANCE_ROUNDS) {
            last += count;
        }
        return last;
    }
}
