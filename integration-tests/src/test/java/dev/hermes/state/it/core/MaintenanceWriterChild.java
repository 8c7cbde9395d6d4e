package dev.hermes.state.it.core;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A process that makes every write but appends while others append: arguments {@code URL SCHEMA ROUNDS
 * DOOMED TITLED...}. Prints READY, waits for GO, then per round creates a session of its own (source
 * {@code maintenance}) with two messages, titles and ends it, deletes the previous round's session
 * every 3rd round and prunes the ended ones every 5th; sets the title of one of the {@code TITLED}
 * sessions (other writers' live sessions, waited for until they exist) to {@code title ROUND}; and
 * deletes the session {@code DOOMED} half-way. Prints one line "DONE DELETED PRUNED" (or "FAILED
 * message") and exits 0 (1 on failure).
 */
public final class MaintenanceWriterChild {
    static final String SOURCE = "maintenance";

    private MaintenanceWriterChild() {
    }

    static String session(int round) {
        return "maintenance-" + round;
    }

    /** The title set on {@code titled[round % titled.length]} in {@code round}. */
    static String title(int round) {
        return "title " + round;
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[2]);
        String doomed = args[3];
        String[] titled = java.util.Arrays.copyOfRange(args, 4, args.length);
        try (StateRepository store = StateRepository.builder().location(args[0]).schema(args[1]).build()) {
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"GO".equals(in.readLine())) {
                System.out.println("FAILED no GO");
                System.exit(1);
            }
            int deleted = 0;
            int pruned = 0;
            for (int round = 0; round < rounds; round++) {
                String id = session(round);
                store.createSession(id, SOURCE);
                store.appendMessage(id, NewMessage.of("user", "maintenance round " + round));
                store.appendMessage(id, NewMessage.of("assistant", "noted"));
                store.setSessionTitle(id, "maintenance " + round);
                store.endSession(id, "done");
                if (round % 3 == 2 && store.deleteSession(session(round - 1))) {
                    deleted++;
                }
                if (round % 5 == 4) {
                    pruned += store.pruneSessions(Duration.ZERO, SOURCE).count();
                }
                String other = titled[round % titled.length];
                while (!store.setSessionTitle(other, title(round))) {
                    Thread.sleep(5); // its writer has not created it yet
                }
                if (round == rounds / 2 && !store.deleteSession(doomed)) {
                    throw new IllegalStateException("session " + doomed + " was not there to delete");
                }
            }
            System.out.println("DONE " + deleted + " " + pruned);
        } catch (RuntimeException failure) {
            System.out.println("FAILED " + failure);
            System.exit(1);
        }
    }
}
