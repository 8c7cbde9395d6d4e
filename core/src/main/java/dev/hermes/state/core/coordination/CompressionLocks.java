package dev.hermes.state.core.coordination;

import dev.hermes.state.core.backend.Transaction;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.time.Instant;
import java.util.Optional;

import static dev.hermes.state.db.Tables.COMPRESSION_LOCKS;

/**
 * The agent's per-session compression lease ({@code compression_locks}): a writer that is about to
 * compress a session (end it and continue in a child) must hold it, or two compressions of one session
 * fork its lineage. A lease lasts its TTL from when it was taken or refreshed; an expired one is
 * reclaimed by the next taker. Every step runs in one write transaction, and writes to a store run one
 * at a time, so of two takers exactly one gets it. Times are the store clock's epoch seconds.
 */
public final class CompressionLocks {

    /** try_acquire_compression_lock: true when {@code holder} now holds the lock (a lock it already held included). */
    public boolean tryAcquire(Transaction transaction, String sessionId, String holder, double now, double ttlSeconds) {
        DSLContext dsl = transaction.dsl();
        dsl.deleteFrom(COMPRESSION_LOCKS)
                .where(COMPRESSION_LOCKS.SESSION_ID.eq(sessionId))
                .and(seconds(COMPRESSION_LOCKS.EXPIRES_AT).lt(now))
                .execute();
        dsl.insertInto(COMPRESSION_LOCKS)
                .set(COMPRESSION_LOCKS.SESSION_ID, sessionId)
                .set(COMPRESSION_LOCKS.HOLDER, holder)
                .set(COMPRESSION_LOCKS.ACQUIRED_AT, time(now, COMPRESSION_LOCKS.ACQUIRED_AT))
                .set(COMPRESSION_LOCKS.EXPIRES_AT, time(now + ttlSeconds, COMPRESSION_LOCKS.EXPIRES_AT))
                .onConflictDoNothing()
                .execute();
        return dsl.select(COMPRESSION_LOCKS.HOLDER).from(COMPRESSION_LOCKS)
                .where(COMPRESSION_LOCKS.SESSION_ID.eq(sessionId))
                .fetchOptional(COMPRESSION_LOCKS.HOLDER)
                .map(holder::equals)
                .orElse(false);
    }

    /** refresh_compression_lock: extends the lease to now + TTL when {@code holder} holds an unexpired one. */
    public boolean refresh(Transaction transaction, String sessionId, String holder, double now, double ttlSeconds) {
        return transaction.dsl().update(COMPRESSION_LOCKS)
                .set(COMPRESSION_LOCKS.EXPIRES_AT, time(now + ttlSeconds, COMPRESSION_LOCKS.EXPIRES_AT))
                .where(COMPRESSION_LOCKS.SESSION_ID.eq(sessionId))
                .and(COMPRESSION_LOCKS.HOLDER.eq(holder))
                .and(seconds(COMPRESSION_LOCKS.EXPIRES_AT).ge(now))
                .execute() > 0;
    }

    /** release_compression_lock: removes the lock only when {@code holder} holds it (expired or not). */
    public int release(Transaction transaction, String sessionId, String holder) {
        return transaction.dsl().deleteFrom(COMPRESSION_LOCKS)
                .where(COMPRESSION_LOCKS.SESSION_ID.eq(sessionId))
                .and(COMPRESSION_LOCKS.HOLDER.eq(holder))
                .execute();
    }

    /** get_compression_lock_holder: who holds an unexpired lock on the session. */
    public Optional<String> holder(Transaction transaction, String sessionId, double now) {
        return transaction.dsl().select(COMPRESSION_LOCKS.HOLDER).from(COMPRESSION_LOCKS)
                .where(COMPRESSION_LOCKS.SESSION_ID.eq(sessionId))
                .and(seconds(COMPRESSION_LOCKS.EXPIRES_AT).ge(now))
                .fetchOptional(COMPRESSION_LOCKS.HOLDER);
    }

    /** The stored double of a time column, compared without the microsecond rounding of its Instant. */
    static Field<Double> seconds(Field<Instant> column) {
        return DSL.field(column.getQualifiedName(), SQLDataType.DOUBLE);
    }

    /** A value for a time column, bound as the exact double. */
    static Field<Instant> time(double epochSeconds, Field<Instant> column) {
        return DSL.val(epochSeconds, SQLDataType.DOUBLE).coerce(column);
    }
}
