package dev.hermes.state.cli.launch;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * Start-up on two cores: while the main thread builds picocli's model of the command (reflection over
 * its annotations, about a third of a cold {@code sessions list}), a daemon thread initialises what
 * every store command reaches next: jOOQ's DSL context (its static initialiser builds the data types of
 * every dialect, about a fifth) and sqlite-jdbc's connection configuration (its date formats). Class
 * initialisation runs once per JVM whichever thread gets there first; the other one waits for it, so
 * nothing is done twice and nothing changes but the order. A failure here is left to the real use to
 * report.
 */
public final class StartupWarmup {
    private StartupWarmup() {
    }

    /** Starts the warm-up thread; the process does not wait for it. */
    public static void start() {
        Thread thread = new Thread(StartupWarmup::run, "hermes-state-warmup");
        thread.setDaemon(true);
        thread.start();
    }

    private static void run() {
        try {
            DSL.using(SQLDialect.SQLITE);
            SqliteConnections.config(RetryPolicy.HERMES, true);
        } catch (RuntimeException | LinkageError ignored) {
            // the command's own use of these classes reports the problem
        }
    }
}
