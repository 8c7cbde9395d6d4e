package dev.hermes.state.core.backend;

/**
 * Where a write transaction stands among the store's writes: which writer connection runs it
 * ({@code writer}, a new number for every connection the store opens for writing), the number of the
 * unit of work it is on that writer ({@code unit}: every use of the writer counts, a write, an append,
 * a checkpoint, a retried attempt), whether the unit just before it committed, and the writer's
 * {@link Backend#otherConnectionsVersion} read inside it. Compared with the stamp of an earlier
 * transaction it tells whether anything at all wrote the database in between ({@link #directlyAfter}).
 */
public record WriteStamp(long writer, long unit, boolean previousCommitted, long otherConnectionsVersion) {

    /**
     * True when this transaction is the very next unit of work on the same writer connection after
     * {@code earlier}'s, {@code earlier}'s committed, and no other connection committed since: the
     * database is then exactly as {@code earlier}'s transaction left it.
     */
    public boolean directlyAfter(WriteStamp earlier) {
        return writer == earlier.writer && unit == earlier.unit + 1 && previousCommitted
                && otherConnectionsVersion == earlier.otherConnectionsVersion;
    }
}
