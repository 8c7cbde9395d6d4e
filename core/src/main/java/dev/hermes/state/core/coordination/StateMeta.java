package dev.hermes.state.core.coordination;

import dev.hermes.state.core.backend.Transaction;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

import static dev.hermes.state.db.Tables.STATE_META;

/**
 * The agent's key/value table {@code state_meta}: scheduler bookkeeping ({@code last_auto_prune}),
 * one-off data fixes done ({@code ghost_session_prune_v1}...), goals ({@code goal:<session id>}), the
 * Telegram topic schema's version.
 */
public final class StateMeta {

    /** get_meta: empty for a missing key, and for a key whose value is NULL (the agent's None either way). */
    public Optional<String> get(Transaction transaction, String key) {
        return transaction.dsl().select(STATE_META.VALUE).from(STATE_META)
                .where(STATE_META.KEY.eq(key))
                .fetchOptional(STATE_META.VALUE);
    }

    /** set_meta: inserts or replaces the value. */
    public void set(Transaction transaction, String key, @Nullable String value) {
        transaction.dsl().insertInto(STATE_META)
                .set(STATE_META.KEY, key)
                .set(STATE_META.VALUE, value)
                .onConflict(STATE_META.KEY)
                .doUpdate()
                .set(STATE_META.VALUE, org.jooq.impl.DSL.excluded(STATE_META.VALUE))
                .execute();
    }
}
