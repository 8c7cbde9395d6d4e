package dev.hermes.state.it.core;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several writers on one PostgreSQL store at once: three JVM processes with their own stores (their
 * own pools) and two threads of this JVM sharing one store. No error may reach any caller, no message
 * may be lost, and every session's counters must equal its rows: the store's write lock (an advisory
 * transaction lock per schema) makes each write's read-then-update exact whichever process makes it.
 */
class PostgresContentionTest {
    private static final System.Logger LOG = System.getLogger(PostgresContentionTest.class.getName());

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private final List<ChildProcess> children = new ArrayList<>();

    @AfterEach
    void closeChildren() {
        children.forEach(ChildProcess::close);
    }

    @Test
    void threeProcessesAndTwoThreadsAppendAtOnce() throws Exception {
        List<String> writers = new ArrayList<>();
        try (StateRepository store = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            List<ChildProcess> processes = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                String name = "process" + p;
                writers.add(name);
                ChildProcess child = Command.java(ContentionWriterChild.class, postgres.url(), name,
                        String.valueOf(ContentionTest.ROUNDS), postgres.schema()).start();
                children.add(child);
                processes.add(child);
                ContentionTest.expectLine(child, "READY");
            }
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<long[]>> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                String name = "thread" + t;
                writers.add(name);
                threads.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    return new AppendWorkload(name, ContentionTest.ROUNDS).run(store);
                }, runnable -> new Thread(runnable, name).start()));
            }
            processes.forEach(child -> child.send("GO"));
            go.countDown();
            for (int t = 0; t < threads.size(); t++) {
                long[] thread = threads.get(t).get(5, TimeUnit.MINUTES);
                LOG.log(System.Logger.Level.DEBUG, "postgres thread{0}: {1}", t, AppendWorkload.summary(thread));
            }
            for (int p = 0; p < processes.size(); p++) {
                String result = ContentionTest.finish(processes.get(p));
                assertTrue(result.startsWith("DONE "), result);
            }
            ContentionTest.checkEverySession(store, writers, new AppendWorkload("any", ContentionTest.ROUNDS));
        }
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT (SELECT sum(message_count) FROM \"" + postgres.schema()
                     + "\".sessions) = (SELECT count(*) FROM \"" + postgres.schema() + "\".messages)")) {
            rows.next();
            assertTrue(rows.getBoolean(1), "the counters add up to the rows");
        }
        assertEquals(5, writers.size());
    }
}
