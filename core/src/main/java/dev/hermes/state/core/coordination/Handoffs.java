package dev.hermes.state.core.coordination;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.HandoffState;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.Rows;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The cross-platform handoff of a session, a state machine in its row: a CLI requests it
 * ({@code pending}), a gateway claims it ({@code running}) and ends it ({@code completed} or
 * {@code failed}, with the reason). Each transition is one conditional update, so of two gateways
 * claiming one request exactly one succeeds.
 */
public final class Handoffs {
    /** The longest failure reason kept, in code points (the agent's {@code error[:500]}). */
    private static final int MAX_ERROR = 500;

    /** request_handoff: true when the session exists and has no handoff in flight (none, or a finished one). */
    public boolean request(Transaction transaction, String sessionId, @Nullable String platform) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.HANDOFF_STATE, DSL.inline("pending"))
                .set(SESSIONS.HANDOFF_PLATFORM, platform)
                .setNull(SESSIONS.HANDOFF_ERROR)
                .where(SESSIONS.ID.eq(sessionId))
                .and(SESSIONS.HANDOFF_STATE.isNull().or(SESSIONS.HANDOFF_STATE.in(DSL.inline("completed"), DSL.inline("failed"))))
                .execute() > 0;
    }

    /** get_handoff_state: empty for an unknown session; all null for one that never had a handoff. */
    public Optional<HandoffState> state(Transaction transaction, String sessionId) {
        return transaction.dsl().select(SESSIONS.HANDOFF_STATE, SESSIONS.HANDOFF_PLATFORM, SESSIONS.HANDOFF_ERROR)
                .from(SESSIONS)
                .where(SESSIONS.ID.eq(sessionId))
                .fetchOptional(row -> new HandoffState(row.value1(), row.value2(), row.value3()));
    }

    /** list_pending_handoffs: the sessions waiting for a gateway, oldest first. */
    public List<Session> pending(Transaction transaction) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(SESSIONS.HANDOFF_STATE.eq(DSL.inline("pending")))
                .orderBy(SESSIONS.STARTED_AT.asc())
                .fetch(Rows::session);
    }

    /** claim_handoff: pending → running; true for the one caller that made the change. */
    public boolean claim(Transaction transaction, String sessionId) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.HANDOFF_STATE, DSL.inline("running"))
                .where(SESSIONS.ID.eq(sessionId))
                .and(SESSIONS.HANDOFF_STATE.eq(DSL.inline("pending")))
                .execute() > 0;
    }

    /** complete_handoff: whatever the state was, and clears the error. */
    public int complete(Transaction transaction, String sessionId) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.HANDOFF_STATE, DSL.inline("completed"))
                .setNull(SESSIONS.HANDOFF_ERROR)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /** fail_handoff: whatever the state was; the reason cut to 500 code points. */
    public int fail(Transaction transaction, String sessionId, String error) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.HANDOFF_STATE, DSL.inline("failed"))
                .set(SESSIONS.HANDOFF_ERROR, firstCodePoints(error, MAX_ERROR))
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    static String firstCodePoints(String text, int count) {
        if (text.codePointCount(0, text.length()) <= count) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, count));
    }
}
