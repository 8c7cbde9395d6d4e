package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.db.tables.Sessions;
import org.jooq.Condition;
import org.jooq.impl.DSL;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * What today's agent (schema 17) makes of a child session, as SQL conditions on a sessions row: a
 * /branch (its {@code _branched_from} marker, or the older sign: a parent that ended {@code branched}
 * before the child started) is a conversation of its own and is listed; a subagent run (the
 * {@code _delegate_from} marker) never is; a compression continuation is the child of a parent that
 * ended {@code compression}, unless it is a branch, a subagent run or a tool's session. The markers
 * live in {@code model_config}.
 */
final class SessionKinds {
    /** The end reason of a parent whose branch children are still listed. */
    static final String BRANCHED = "branched";
    /** The marker of a /branch child in its model_config. */
    static final String BRANCHED_FROM = "_branched_from";
    /** The marker of a subagent run in its model_config. */
    static final String DELEGATE_FROM = "_delegate_from";
    /** The source of sessions a tool opened, never a continuation. */
    static final String TOOL_SOURCE = "tool";

    private final Backend backend;

    SessionKinds(Backend backend) {
        this.backend = backend;
    }

    /** {@code session} is a /branch child (marked, or its parent ended {@code branched} before it started). */
    Condition isBranch(Sessions session, StoreSchema schema) {
        Sessions parent = SESSIONS.as("branch_parent");
        return backend.jsonMemberIsNull(session.MODEL_CONFIG, BRANCHED_FROM, schema).not()
                .or(DSL.exists(DSL.selectOne().from(parent)
                        .where(parent.ID.eq(session.PARENT_SESSION_ID))
                        .and(parent.END_REASON.eq(DSL.inline(BRANCHED)))
                        .and(session.STARTED_AT.ge(parent.ENDED_AT))));
    }

    /** {@code session} surfaces in the agent's pickers: a root or a /branch child, and no subagent run. */
    Condition isListed(Sessions session, StoreSchema schema) {
        return session.PARENT_SESSION_ID.isNull().or(isBranch(session, schema))
                .and(isNotDelegate(session, schema));
    }

    /** {@code session} carries no {@code _delegate_from} marker. */
    Condition isNotDelegate(Sessions session, StoreSchema schema) {
        return backend.jsonMemberIsNull(session.MODEL_CONFIG, DELEGATE_FROM, schema);
    }

    /**
     * {@code child} may continue its parent's conversation: no branch or delegate marker, not a tool's
     * session. (Whether the parent ended {@code compression} is the caller's other half of the test.)
     */
    Condition mayContinue(Sessions child, StoreSchema schema) {
        return backend.jsonMemberIsNull(child.MODEL_CONFIG, BRANCHED_FROM, schema)
                .and(isNotDelegate(child, schema))
                .and(DSL.coalesce(child.SOURCE, DSL.inline("")).ne(DSL.inline(TOOL_SOURCE)));
    }
}
