package dev.hermes.state.it.reliability;

import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.PostgresTestSchema;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The PostgreSQL server restarted, then stopped and started again, while a store is open: the next
 * call after a restart succeeds (the pool replaces the broken connections); a call while the server
 * is down fails typed (I/O, one line, no password) after the pool's wait, and the store works again
 * once the server is back. Needs root for pg_ctlcluster; it disturbs every other client of the
 * server for a few seconds, so it is one short test.
 */
class PostgresRestartTest {
    private static final Duration PG_CTL_TIMEOUT = Duration.ofMinutes(2);

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Test
    void aStoreOutlivesRestartsAndFailsTypedWhileTheServerIsDown() {
        String[] cluster = cluster();
        try (StateRepository store = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            store.createSession("s1", "cli");
            store.appendMessage("s1", NewMessage.of("user", "before the restart"));
            assertEquals(1, store.getSession("s1").orElseThrow().messageCount());

            pgCtl(cluster, "restart");
            store.appendMessage("s1", NewMessage.of("user", "after the restart"));
            assertEquals(2, store.getSession("s1").orElseThrow().messageCount());

            pgCtl(cluster, "stop");
            try {
                HermesStateException read = assertThrows(HermesStateException.class, () -> store.getSession("s1"));
                assertEquals(ErrorType.IO, read.type(), read.getMessage());
                assertTrue(read.getMessage().startsWith("Cannot use the PostgreSQL server while "), read.getMessage());
                HermesStateException write = assertThrows(HermesStateException.class,
                        () -> store.appendMessage("s1", NewMessage.of("user", "while down")));
                assertEquals(ErrorType.IO, write.type(), write.getMessage());
                for (HermesStateException failure : List.of(read, write)) {
                    assertFalse(failure.getMessage().contains(postgres.password()), failure.getMessage());
                    assertFalse(failure.getMessage().contains("\n"), failure.getMessage());
                }
            } finally {
                pgCtl(cluster, "start");
            }
            store.appendMessage("s1", NewMessage.of("user", "after the start"));
            assertEquals(3, store.getSession("s1").orElseThrow().messageCount());
            assertEquals(List.of("before the restart", "after the restart", "after the start"),
                    store.getMessages("s1").stream().map(message -> message.text()).toList());
        }
    }

    /** The version and name of the cluster that listens on the test URL's port ({@code pg_lsclusters}). */
    private String[] cluster() {
        int port = URI.create(postgres.url()).getPort() < 0 ? 5432 : URI.create(postgres.url()).getPort();
        ProcessResult clusters = Command.of("pg_lsclusters", "-h").run(PG_CTL_TIMEOUT);
        for (String line : clusters.lines()) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length > 2 && fields[2].equals(String.valueOf(port))) {
                return new String[]{fields[0], fields[1]};
            }
        }
        return fail("no cluster on port " + port + ": " + clusters);
    }

    private static void pgCtl(String[] cluster, String action) {
        ProcessResult result = Command.of("pg_ctlcluster", cluster[0], cluster[1], action).run(PG_CTL_TIMEOUT);
        assertEquals(0, result.exitCode(), result.toString());
    }
}
