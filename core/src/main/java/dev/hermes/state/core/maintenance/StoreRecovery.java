package dev.hermes.state.core.maintenance;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.backend.sqlite.SqliteRecovery;
import dev.hermes.state.core.model.RecoveryReport;

import java.nio.file.Path;
import java.time.Clock;

/**
 * Salvages a damaged SQLite file into a new store ({@code hermes-state recover}); SQLite only: a
 * PostgreSQL server guards its own pages, and its backups are the server's. The source is never
 * written; {@code inspectOnly} reports what would be salvaged and writes nothing at all.
 */
public final class StoreRecovery {
    private StoreRecovery() {
    }

    public static RecoveryReport recover(Path from, Path to, boolean inspectOnly) {
        return recover(from, to, inspectOnly, Clock.systemUTC());
    }

    /** With the clock that names the placeholder session of orphaned messages. */
    public static RecoveryReport recover(Path from, Path to, boolean inspectOnly, Clock clock) {
        if (from == null || to == null) {
            throw new InvalidArgumentException("recover needs --from and --to");
        }
        return SqliteRecovery.recover(from, to, inspectOnly, RetryPolicy.HERMES, clock);
    }
}
