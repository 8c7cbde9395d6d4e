package dev.hermes.state.core;

import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.migrations.Migrator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.Optional;

/**
 * The rich listing must cost the same whatever the size of the store (work only for the page's
 * rows): p50 of list_sessions_rich(limit=20) at the offsets of BENCHMARK.md W3 for S=500 and
 * S=5000 sessions of 40 messages, plus keyset pages and the compression tip of a 1,000-deep chain
 * (milliseconds of CPU time). With the argument 17, on stores at schema 17 (today's agent's rules: the
 * listing's JSON marker tests, archived filter, the v17 tip walk), plus the order by last activity
 * (which walks every listed session's chain, as the agent's does).
 * Not a test: run it by hand (see the report).
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.ListingBenchmark [6|17]</pre>
 */
public final class ListingBenchmark {
    private ListingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int version = args.length > 0 ? Integer.parseInt(args[0]) : StateRepository.DEFAULT_SCHEMA_VERSION;
        Path work = Files.createTempDirectory("listing-bench");
        for (int sessions : new int[]{500, 5000}) {
            Path file = work.resolve("s" + sessions + ".db");
            Migrator.create().toVersion(version).migrate(file);
            fill(file, sessions, 40);
            try (StateRepository store = StateRepository.builder().path(file).schemaVersion(version).build()) {
                StringBuilder line = new StringBuilder("S=" + sessions + ":");
                for (int offset : new int[]{0, 100, sessions / 2, sessions - 20}) {
                    ListSessionsQuery query = ListSessionsQuery.builder().limit(20).offset(offset).build();
                    line.append(String.format(" offset %d p50 %.2f ms;", offset, p50(() -> store.listSessionsRich(query))));
                }
                Optional<String>[] cursor = new Optional[]{Optional.empty()};
                double keyset = p50(() -> {
                    Page<RichSession> page = store.listSessionsRichPage(ListSessionsQuery.builder().limit(20).build(), cursor[0].orElse(null));
                    cursor[0] = page.nextCursor();
                });
                line.append(String.format(" keyset pages p50 %.2f ms;", keyset));
                line.append(String.format(" search_sessions offset %d p50 %.2f ms", sessions - 20,
                        p50(() -> store.searchSessions(null, 20, sessions - 20))));
                if (version >= 17) {
                    ListSessionsQuery byActivity = ListSessionsQuery.builder().limit(20).orderByLastActive(true).build();
                    line.append(String.format("; by last activity p50 %.2f ms", p50(() -> store.listSessionsRich(byActivity))));
                    line.append(String.format("; session_count(exclude_children) p50 %.2f ms", p50(() -> store.getSessionCount(
                            dev.hermes.state.core.model.SessionCountQuery.builder().excludeChildren(true).build()))));
                }
                System.out.println(line);
            }
        }
        Path chain = work.resolve("chain.db");
        Migrator.create().toVersion(version).migrate(chain);
        try (StateRepository store = StateRepository.builder().path(chain).schemaVersion(version).build()) {
            store.inWriteTransaction(dsl -> {
                for (int hop = 0; hop <= 1000; hop++) {
                    dsl.insertInto(dev.hermes.state.db.Tables.SESSIONS)
                            .set(dev.hermes.state.db.Tables.SESSIONS.ID, "chain-" + hop)
                            .set(dev.hermes.state.db.Tables.SESSIONS.SOURCE, "cli")
                            .set(dev.hermes.state.db.Tables.SESSIONS.PARENT_SESSION_ID, hop == 0 ? null : "chain-" + (hop - 1))
                            .set(dev.hermes.state.db.Tables.SESSIONS.STARTED_AT, java.time.Instant.ofEpochSecond(1_773_000_000L + 2L * hop))
                            .set(dev.hermes.state.db.Tables.SESSIONS.ENDED_AT, hop == 1000 ? null : java.time.Instant.ofEpochSecond(1_773_000_001L + 2L * hop))
                            .set(dev.hermes.state.db.Tables.SESSIONS.END_REASON, hop == 1000 ? null : "compression")
                            .execute();
                }
                return null;
            });
            String[] tip = new String[1];
            double p50 = p50(() -> tip[0] = store.compressionTip("chain-0"));
            System.out.printf("compression tip at depth 1000: %s, p50 %.2f ms%n", tip[0], p50);
        }
    }

    /**
     * Median of 50 calls after 20 untimed ones, in CPU time of the calling thread (SQLite runs in
     * it too): on a shared, overloaded machine wall-clock medians mostly measure the other tenants.
     */
    private static double p50(Runnable call) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20; i++) {
            call.run();
        }
        long[] nanos = new long[50];
        for (int i = 0; i < nanos.length; i++) {
            long start = threads.getCurrentThreadCpuTime();
            call.run();
            nanos[i] = threads.getCurrentThreadCpuTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[nanos.length / 2 - 1] / 1e6;
    }

    private static void fill(Path file, int sessions, int perSession) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement session = connection.prepareStatement(
                    "INSERT INTO sessions (id, source, started_at, message_count) VALUES (?, ?, ?, ?)");
                 PreparedStatement message = connection.prepareStatement(
                         "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                String[] sources = {"cli", "telegram", "discord", "slack", "whatsapp"};
                for (int s = 0; s < sessions; s++) {
                    String id = String.format("bench-%06d", s);
                    session.setString(1, id);
                    session.setString(2, sources[s % sources.length]);
                    session.setDouble(3, 1_773_000_000.0 + s * 10.0);
                    session.setInt(4, perSession);
                    session.addBatch();
                    for (int m = 0; m < perSession; m++) {
                        message.setString(1, id);
                        message.setString(2, m % 2 == 0 ? "user" : "assistant");
                        message.setString(3, "message " + m + " of session " + id + " with some words to index and preview");
                        message.setDouble(4, 1_773_000_000.0 + s * 10.0 + m * 0.1);
                        message.addBatch();
                    }
                }
                session.executeBatch();
                message.executeBatch();
            }
            connection.commit();
        }
    }
}
