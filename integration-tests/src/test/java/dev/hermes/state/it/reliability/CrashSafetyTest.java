package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer process is killed with SIGKILL at random moments while it appends (single messages and
 * batches with tool calls), ten times over on the same file. After every kill the file must be
 * intact (SQLite's and FTS5's integrity checks), every session's counters must equal what its rows
 * say, no batch may be torn, and every message the writer saw committed must be there.
 */
class CrashSafetyTest {
    private static final int KILLS = 10;
    private static final int MAX_KILL_DELAY_MILLIS = 1200;
    /** Small, fast-starting child JVMs: they are killed within a second or two anyway. */
    static final List<String> CHILD_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private static final Pattern BATCH_PART = Pattern.compile("^batch (\\S+) part (\\d+)/(\\d+) ");

    @TempDir
    Path dir;

    @Test
    void killingAWriterAtRandomMomentsLosesNothingAndLeavesAConsistentFile() throws Exception {
        long seed = Seeds.seed("crash safety");
        Random random = new Random(seed);
        Path db = dir.resolve("state.db");
        StateRepository.open(db).close(); // the file exists before the first kill; creating it is tested elsewhere

        Map<Long, String> everCommitted = new HashMap<>();
        for (int round = 1; round <= KILLS; round++) {
            String context = Seeds.replay(seed) + "kill " + round + ": ";
            WriterReport report;
            try (ChildProcess writer = Command.java(CHILD_JVM, AppendingWriterChild.class, db.toString(), "w" + round,
                    String.valueOf(seed + round), "0", "shared-a", "shared-b").start()) {
                // READY and one committed write: the kill lands while appending, not during start-up
                assertTrue(writer.awaitLines(2, Duration.ofSeconds(90)), context + "the writer never wrote\n" + writer.transcript());
                Thread.sleep(random.nextInt(MAX_KILL_DELAY_MILLIS));
                writer.kill();

                report = WriterReport.parse(writer.lines());
                assertEquals(List.of(), report.errors(), context + writer.transcript());
                assertTrue(report.ready() && !report.done(), context + writer.transcript());
            }
            everCommitted.putAll(report.committed());
            checkFile(crashStateCopy(db, round), everCommitted, context);
        }
        // the last writer's WAL is recovered by the next open of the store, as in real life
        StateRepository.open(db).close();
        checkFile(db, everCommitted, Seeds.replay(seed) + "after reopening: ");
    }

    /**
     * The file as the killed process left it (database and WAL), copied aside: the checks run on the
     * copy, so the next writer meets the crashed file and its leftover WAL itself, as it would in
     * real life, instead of a file this test's connection has already recovered and checkpointed.
     */
    private Path crashStateCopy(Path db, int round) throws Exception {
        Path copy = Files.createDirectories(dir.resolve("after-kill-" + round)).resolve("state.db");
        Files.copy(db, copy);
        if (Files.exists(wal(db))) {
            Files.copy(wal(db), wal(copy));
        }
        return copy;
    }

    private static Path wal(Path db) {
        return Path.of(db + "-wal");
    }

    /** Every check after a kill; returns how many messages the file holds. */
    private static long checkFile(Path db, Map<Long, String> everCommitted, String context) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertEquals("ok", StoreFiles.integrityCheck(connection), context + "PRAGMA integrity_check");
            assertNull(StoreFiles.ftsIntegrityProblem(connection), context + "FTS5 integrity-check");
            assertEquals(List.of(), StoreFiles.counterMismatches(connection), context + "session counters vs rows");
            Map<Long, String> stored = StoreFiles.messageSessions(connection);
            assertEquals(List.of(), new WriterReport(everCommitted, 0, List.of(), true, false).missingFrom(stored),
                    context + "messages reported committed but missing");
            assertEquals(List.of(), tornBatches(connection), context + "batches stored in part");
            return stored.size();
        }
    }

    /** Batches of which only some messages are stored (whether or not the writer lived to report them). */
    private static List<String> tornBatches(Connection connection) throws Exception {
        Map<String, int[]> batches = new TreeMap<>(); // tag → {parts stored, size}
        for (List<Object> row : SqliteFiles.query(connection, "SELECT content FROM messages WHERE content LIKE 'batch %'")) {
            Matcher part = BATCH_PART.matcher((String) row.get(0));
            assertTrue(part.find(), "unexpected batch content " + row.get(0));
            int[] seen = batches.computeIfAbsent(part.group(1), tag -> new int[] {0, Integer.parseInt(part.group(3))});
            seen[0]++;
        }
        List<String> torn = new ArrayList<>();
        batches.forEach((tag, seen) -> {
            if (seen[0] != seen[1]) {
                torn.add(tag + ": " + seen[0] + " of " + seen[1] + " parts");
            }
        });
        return torn;
    }
}
