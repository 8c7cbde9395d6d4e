package dev.hermes.state.core.connection;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.migrations.Migrator;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import javax.sql.DataSource;

/**
 * Everything a store is opened with, checked as a whole when it is made (HikariConfig's idea: one
 * object holds and validates the settings; {@code StateRepository.Builder} fills it, {@link Opening}
 * only reads it). The defaults live here and in {@link RetryPolicy#HERMES} only.
 *
 * @param path a SQLite file; exactly one of {@code path}, {@code dataSource} and {@code url} is given
 * @param schema the PostgreSQL schema of a {@code url} or {@code dataSource} store (null: {@code hermes})
 * @param retryPolicy how long and how often the store waits for another connection's lock
 * @param readerPoolSize the most read connections the store uses at once
 * @param checkpointEvery a PASSIVE checkpoint after this many successful writes
 * @param migrate whether a read-write open migrates or adopts the store
 * @param schemaVersion the version a read-write open brings the store to ({@link Migrator#checkTarget})
 */
public record StoreConfig(@Nullable Path path, @Nullable DataSource dataSource, @Nullable String url, @Nullable String schema,
                          boolean readOnly, RetryPolicy retryPolicy, int readerPoolSize, int checkpointEvery,
                          boolean migrate, int schemaVersion) {

    /** The agent keeps no pool; four readers serve a desktop's concurrent reads without holding many files open. */
    public static final int DEFAULT_READER_POOL_SIZE = 4;
    /** Hermes' PASSIVE checkpoint every 50 writes. */
    public static final int DEFAULT_CHECKPOINT_EVERY = 50;

    public StoreConfig {
        int given = (path == null ? 0 : 1) + (dataSource == null ? 0 : 1) + (url == null ? 0 : 1);
        if (given != 1) {
            throw new InvalidArgumentException("Give exactly one of path(...), url(...) and dataSource(...)");
        }
        if (schema != null && path != null) {
            throw new InvalidArgumentException("schema(...) is for a PostgreSQL url(...) or dataSource(...)");
        }
        if (readerPoolSize < 1) {
            throw new InvalidArgumentException("readerPoolSize must be at least 1, got " + readerPoolSize);
        }
        if (checkpointEvery < 1) {
            throw new InvalidArgumentException("checkpointEvery must be at least 1, got " + checkpointEvery);
        }
        Migrator.checkTarget(schemaVersion);
    }
}
