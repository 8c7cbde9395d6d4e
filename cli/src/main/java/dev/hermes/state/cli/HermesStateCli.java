package dev.hermes.state.cli;

/** Entry point of the hermes-state command (being built). */
public final class HermesStateCli {
    private HermesStateCli() {
    }

    public static void main(String[] args) {
        System.err.println("hermes-state: the command line is being built");
        System.exit(2);
    }
}
