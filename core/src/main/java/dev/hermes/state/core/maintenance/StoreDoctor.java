package dev.hermes.state.core.maintenance;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.backend.postgres.PostgresDoctor;
import dev.hermes.state.core.backend.sqlite.SqliteDoctor;
import dev.hermes.state.core.backend.sqlite.SqliteRepair;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.RepairReport;
import dev.hermes.state.migrations.StoreLocation;
import dev.hermes.state.postgresql.PostgresLocation;

import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Clock;

/**
 * A store's check and repair, on a SQLite file or a PostgreSQL schema; the engine is chosen by the
 * location, nothing else here knows it. {@link #check} never writes; {@link #repair} mends what can be
 * mended without losing a row. Each finding names what it concerns and the command that mends it.
 *
 * <pre>{@code
 * DoctorReport report = StoreDoctor.forFile(path).check();
 * if (report.worst() == Finding.Severity.ERROR) { ... report.problems() ... }
 * }</pre>
 */
public final class StoreDoctor {
    private final @Nullable Path file;
    private final @Nullable PostgresLocation database;
    private final RetryPolicy policy;
    private final Clock clock;

    private StoreDoctor(@Nullable Path file, @Nullable PostgresLocation database, RetryPolicy policy, Clock clock) {
        this.file = file;
        this.database = database;
        this.policy = policy;
        this.clock = clock;
    }

    /** The doctor of a SQLite file. */
    public static StoreDoctor forFile(Path file) {
        if (file == null) {
            throw new InvalidArgumentException("file must not be null");
        }
        return new StoreDoctor(file.toAbsolutePath(), null, RetryPolicy.HERMES, Clock.systemUTC());
    }

    /** The doctor of a PostgreSQL store: {@code url} as the command line takes it, {@code schema} null for hermes. */
    public static StoreDoctor forServer(String url, @Nullable String schema) {
        return forServer(StoreLocation.parse(url, schema).server());
    }

    /** The doctor of a PostgreSQL store in its schema. */
    public static StoreDoctor forServer(PostgresLocation server) {
        return new StoreDoctor(null, server, RetryPolicy.HERMES, Clock.systemUTC());
    }

    /** The same doctor with another clock (it names repair's backups). */
    public StoreDoctor withClock(Clock clock) {
        return new StoreDoctor(file, database, policy, clock);
    }

    /** Runs every check; changes nothing. */
    public DoctorReport check() {
        return file != null ? SqliteDoctor.check(file, policy) : PostgresDoctor.check(server(), policy);
    }

    /**
     * Mends what {@link #check} found that can be mended without losing data, after a backup beside a
     * file; with {@code dryRun}, says what it would do and changes nothing.
     *
     * @throws dev.hermes.state.BusyException    another process holds the store's write lock (nothing changed)
     * @throws dev.hermes.state.StateIOException the file is damaged beyond repair's reach (nothing changed: use recover)
     */
    public RepairReport repair(boolean dryRun) {
        return file != null ? SqliteRepair.repair(file, dryRun, policy, clock) : PostgresDoctor.repair(server(), dryRun, policy);
    }

    private PostgresLocation server() {
        if (database == null) {
            throw new IllegalStateException("neither a file nor a server");
        }
        return database;
    }
}
