package dev.hermes.state.bench.memory;

import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.bench.Benchmark;
import dev.hermes.state.bench.raw.RawJdbcStore;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.WindowEntry;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a chat memory's save costs per added message: the way both frameworks' window memories save
 * (the whole window, all but the newest message kept, the oldest dropped once it is full) through
 * {@link StateRepository#saveConversationWindow}, against a raw-JDBC insert of the same row with its
 * counter update ({@link RawJdbcStore#appendMessage}), each one transaction per added message, on
 * two fresh files, the two sides interleaved message by message. The raw side checkpoints the WAL as
 * the store does (PASSIVE after every {@value Benchmark#RAW_CHECKPOINT_EVERY} commits, Hermes' policy):
 * a baseline that never checkpoints would charge the store for work the other side skips. A warm-up round on both is not counted. Prints one table; nothing is asserted.
 *
 * <pre>java -cp benchmarks/target/hermes-state-bench.jar dev.hermes.state.bench.memory.WindowSaves [conversations] [messages] [window]</pre>
 */
public final class WindowSaves {

    /** One measured run: the messages added on each side and the nanoseconds they took. */
    public record Result(int conversations, int messages, int window, long added, long storeNanos, long rawNanos,
                         long storedRows, long rawRows, int lastWindowSize) {
        public double storeMicrosPerMessage() {
            return storeNanos / 1000.0 / added;
        }

        public double rawMicrosPerMessage() {
            return rawNanos / 1000.0 / added;
        }
    }

    private WindowSaves() {
    }

    public static void main(String[] args) throws Exception {
        int conversations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int window = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Path folder = Files.createTempDirectory("hermes-window-saves");
        run(folder.resolve("warm-up"), 2, messages, window);
        Result result = run(folder.resolve("measured"), conversations, messages, window);
        print(result, System.out);
        System.out.println("files: " + folder);
    }

    /** Adds {@code messages} messages to each of {@code conversations} conversations on both sides, in {@code folder}. */
    public static Result run(Path folder, int conversations, int messages, int window) throws SQLException, java.io.IOException {
        Files.createDirectories(folder);
        Path storeFile = folder.resolve("store.db");
        Path rawFile = folder.resolve("raw.db");
        StoreTarget.open(rawFile.toString()).close();   // the same schema, made by the store's migrator
        long storeNanos = 0;
        long rawNanos = 0;
        long storedRows;
        long rawRows;
        int lastWindowSize = 0;
        // the two sides interleaved message by message, which goes first alternating, so that both see the
        // same machine load (a shared machine's load drifts over the seconds a side takes)
        try (StateRepository store = StoreTarget.open(storeFile.toString()); RawJdbcStore raw = RawJdbcStore.open(rawFile, Benchmark.RAW_CHECKPOINT_EVERY)) {
            for (int c = 0; c < conversations; c++) {
                String id = "conversation-" + c;
                raw.createSession(id, "bench", null);
                List<WindowEntry> current = new ArrayList<>();
                for (int i = 0; i < messages; i++) {
                    NewMessage message = message(c, i);
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn + i) % 2 == 0) {
                            List<WindowEntry> next = new ArrayList<>(current.subList(Math.max(0, current.size() - (window - 1)), current.size()));
                            next.add(WindowEntry.fresh(message));
                            long start = System.nanoTime();
                            SavedWindow saved = store.saveConversationWindow(id, "bench", next);
                            storeNanos += System.nanoTime() - start;
                            current = new ArrayList<>(next.size());
                            for (int k = 0; k < next.size(); k++) {
                                current.add(WindowEntry.stored(saved.messageIds().get(k), next.get(k).message()));
                            }
                        } else {
                            long start = System.nanoTime();
                            raw.appendMessage(id, message);
                            rawNanos += System.nanoTime() - start;
                        }
                    }
                }
                lastWindowSize = store.loadConversationWindow(id).size();
            }
            storedRows = store.messageCount(null);
        }
        try (StateRepository check = StateRepository.openReadOnly(rawFile)) {
            rawRows = check.messageCount(null);
        }
        return new Result(conversations, messages, window, (long) conversations * messages, storeNanos, rawNanos,
                storedRows, rawRows, lastWindowSize);
    }

    private static NewMessage message(int conversation, int i) {
        String role = i % 2 == 0 ? "user" : "assistant";
        return NewMessage.of(role, role + " message " + i + " of conversation " + conversation
                + ": the nightly export stalls at ninety percent after the schema upgrade");
    }

    public static void print(Result result, PrintStream out) {
        out.printf(Locale.ROOT, "window saves: %d conversations x %d messages, window %d (%d added; rows stored %d, raw %d; last window %d)%n",
                result.conversations(), result.messages(), result.window(), result.added(), result.storedRows(),
                result.rawRows(), result.lastWindowSize());
        out.printf(Locale.ROOT, "%-44s %10s%n", "one transaction per added message", "us/message");
        out.printf(Locale.ROOT, "%-44s %10.1f%n", "saveConversationWindow (whole window)", result.storeMicrosPerMessage());
        out.printf(Locale.ROOT, "%-44s %10.1f%n", "raw JDBC insert + counter (checkpoints)", result.rawMicrosPerMessage());
        out.printf(Locale.ROOT, "%-44s %10.2f%n", "ratio", result.storeMicrosPerMessage() / result.rawMicrosPerMessage());
    }
}
