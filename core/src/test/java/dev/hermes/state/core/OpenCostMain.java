package dev.hermes.state.core;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The cost of opening a store on an up-to-date file (not a test: run it by hand, see the report).
 * {@code cold}: this JVM's first open + get_session + close, as a command-line call pays it.
 * {@code warm}: the median of 50 open + get_session + close in a JVM that has done it 20 times.
 * {@code hello}: does nothing (the JVM start-up baseline).
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.OpenCostMain cold|warm|hello FILE SESSION_ID</pre>
 */
public final class OpenCostMain {
    private OpenCostMain() {
    }

    public static void main(String[] args) {
        if (args[0].equals("hello")) {
            return;
        }
        Path file = Path.of(args[1]);
        String session = args[2];
        if (args[0].equals("cold")) {
            long start = System.nanoTime();
            StateRepository store = StateRepository.open(file);
            long opened = System.nanoTime();
            boolean found = store.getSession(session).isPresent();
            long read = System.nanoTime();
            store.close();
            long closed = System.nanoTime();
            System.out.printf("cold: open %.1f ms, first get_session %.1f ms (found %s), close %.1f ms%n",
                    (opened - start) / 1e6, (read - opened) / 1e6, found, (closed - read) / 1e6);
            return;
        }
        long[] nanos = new long[50];
        for (int i = -20; i < nanos.length; i++) {
            long start = System.nanoTime();
            try (StateRepository store = StateRepository.open(file)) {
                store.getSession(session);
            }
            if (i >= 0) {
                nanos[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        System.out.printf("warm: open + get_session + close, median %.2f ms (min %.2f)%n", nanos[24] / 1e6, nanos[0] / 1e6);
    }
}
