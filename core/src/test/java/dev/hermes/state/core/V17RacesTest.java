package dev.hermes.state.core;

import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the agent's semantics promise to processes sharing a file: of two processes racing for the
 * compression lock of a session, exactly one gets it; of two gateways claiming one pending handoff,
 * exactly one does. Two JVMs each open the store, say they are ready, and on a go run through the same
 * sessions in the same order, printing what they won.
 */
class V17RacesTest {
    private static final int ROUNDS = 200;
    private static final Duration STARTUP = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void ofTwoProcessesRacingForACompressionLockExactlyOneWinsEach() throws Exception {
        Path file;
        try (StateRepository store = TestStores.fresh(dir, java.time.Clock.systemUTC(), 17)) {
            file = store.path().orElseThrow();
        }
        List<List<String>> wins = race(file, "lock");
        assertExactlyOneWinnerEach(wins);
        try (StateRepository store = StateRepository.builder().path(file).schemaVersion(17).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                String holder = wins.get(0).contains(String.valueOf(round)) ? "first" : "second";
                assertEquals(holder, store.getCompressionLockHolder("race-" + round).orElseThrow(), "round " + round);
            }
        }
    }

    @Test
    void ofTwoGatewaysClaimingAHandoffExactlyOneClaimsEach() throws Exception {
        Path file;
        try (StateRepository store = TestStores.fresh(dir, java.time.Clock.systemUTC(), 17)) {
            for (int round = 0; round < ROUNDS; round++) {
                store.createSession("race-" + round, "cli");
                assertTrue(store.requestHandoff("race-" + round, "discord"));
            }
            file = store.path().orElseThrow();
        }
        assertExactlyOneWinnerEach(race(file, "claim"));
        try (StateRepository store = StateRepository.builder().path(file).schemaVersion(17).build()) {
            assertEquals(List.of(), store.listPendingHandoffs());
            assertEquals("running", store.getHandoffState("race-" + (ROUNDS - 1)).orElseThrow().state());
        }
    }

    private static void assertExactlyOneWinnerEach(List<List<String>> wins) {
        Set<String> first = new HashSet<>(wins.get(0));
        Set<String> second = new HashSet<>(wins.get(1));
        Set<String> both = new HashSet<>(first);
        both.retainAll(second);
        assertEquals(Set.of(), both, "rounds both won");
        Set<String> all = new HashSet<>(first);
        all.addAll(second);
        assertEquals(ROUNDS, all.size(), "every round has a winner: first " + first.size() + ", second " + second.size());
    }

    /** Starts both racers, waits until both are ready, lets them go, and returns what each won. */
    private static List<List<String>> race(Path file, String what) throws Exception {
        List<ChildProcess> racers = new ArrayList<>();
        try {
            for (String holder : List.of("first", "second")) {
                racers.add(Command.java(RacerChild.class, file.toString(), what, holder, String.valueOf(ROUNDS)).start());
            }
            for (ChildProcess racer : racers) {
                assertTrue(racer.awaitLines(1, STARTUP), "ready: " + racer.transcript());
            }
            for (ChildProcess racer : racers) {
                racer.send("go");
                racer.closeStdin();
            }
            List<List<String>> wins = new ArrayList<>();
            for (ChildProcess racer : racers) {
                assertEquals(0, racer.waitFor(STARTUP), racer.transcript());
                List<String> lines = racer.lines();
                assertEquals("ready", lines.get(0));
                wins.add(lines.subList(1, lines.size()));
            }
            return wins;
        } finally {
            racers.forEach(ChildProcess::close);
        }
    }

    /** One racer: args file, lock|claim, holder, rounds. */
    static final class RacerChild {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            boolean lock = args[1].equals("lock");
            String holder = args[2];
            int rounds = Integer.parseInt(args[3]);
            try (StateRepository store = StateRepository.builder().path(file).schemaVersion(17).build()) {
                // warm up (first statements render and prepare), so both start racing at once
                store.getCompressionLockHolder("warm-up");
                store.getHandoffState("warm-up");
                System.out.println("ready");
                System.out.flush();
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                for (int round = 0; round < rounds; round++) {
                    boolean won = lock
                            ? store.tryAcquireCompressionLock("race-" + round, holder, Duration.ofMinutes(10))
                            : store.claimHandoff("race-" + round);
                    if (won) {
                        System.out.println(round);
                    }
                }
            }
        }
    }
}
