package dev.hermes.state.core.coordination;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.CompressionCooldown;
import dev.hermes.state.core.model.Timestamps;
import org.jooq.Field;
import org.jooq.Record2;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The compression back-off of a session, kept in its row so that it survives a resume in another
 * process: after a failed compression the agent records until when not to retry, and why.
 */
public final class CompressionCooldowns {
    private static final Field<Double> UNTIL = CompressionLocks.seconds(SESSIONS.COMPRESSION_FAILURE_COOLDOWN_UNTIL);

    /** record_compression_failure_cooldown: sets (replaces) the cooldown; returns the rows changed. */
    public int record(Transaction transaction, String sessionId, double until, @Nullable String error) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.COMPRESSION_FAILURE_COOLDOWN_UNTIL,
                        CompressionLocks.time(until, SESSIONS.COMPRESSION_FAILURE_COOLDOWN_UNTIL))
                .set(SESSIONS.COMPRESSION_FAILURE_ERROR, error)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /** get_compression_failure_cooldown: the cooldown while it lasts (ends after {@code now}); else empty. */
    public Optional<CompressionCooldown> active(Transaction transaction, String sessionId, double now) {
        Optional<Record2<Double, String>> row = transaction.dsl()
                .select(UNTIL, SESSIONS.COMPRESSION_FAILURE_ERROR).from(SESSIONS)
                .where(SESSIONS.ID.eq(sessionId))
                .fetchOptional();
        if (row.isEmpty() || row.get().value1() == null) {
            return Optional.empty();
        }
        double until = row.get().value1();
        if (until <= now) {
            return Optional.empty();
        }
        return Optional.of(new CompressionCooldown(Timestamps.ofEpochSeconds(until), until - now, row.get().value2()));
    }

    /** clear_compression_failure_cooldown: returns the rows changed. */
    public int clear(Transaction transaction, String sessionId) {
        return transaction.dsl().update(SESSIONS)
                .setNull(SESSIONS.COMPRESSION_FAILURE_COOLDOWN_UNTIL)
                .setNull(SESSIONS.COMPRESSION_FAILURE_ERROR)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }
}
