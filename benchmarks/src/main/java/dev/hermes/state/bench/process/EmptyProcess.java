package dev.hermes.state.bench.process;

/** W8's baseline child: a JVM that starts and does nothing. */
public final class EmptyProcess {
    private EmptyProcess() {
    }

    public static void main(String[] args) {
        // intentionally empty: the cost of starting the JVM with the benchmark's class path and options
    }
}
