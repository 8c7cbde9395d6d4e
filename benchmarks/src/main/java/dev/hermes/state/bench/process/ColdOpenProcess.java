package dev.hermes.state.bench.process;

import dev.hermes.state.core.StateRepository;

/**
 * W8's child: opens the store on an up-to-date file or schema ({@link StoreTarget}), reads one session, says {@code READY}, closes the
 * store and exits. Exit 3 when the session is missing (the run then fails).
 */
public final class ColdOpenProcess {
    public static final String READY = "READY";
    public static final String SESSION = "bench-000001";

    private ColdOpenProcess() {
    }

    public static void main(String[] args) {
        try (StateRepository store = StoreTarget.open(args[0])) {
            if (store.getSession(SESSION).isEmpty()) {
                System.err.println("session " + SESSION + " not found in " + StoreTarget.describe(args[0]));
                System.exit(3);
            }
            System.out.println(READY);
            System.out.flush();
        }
    }
}
