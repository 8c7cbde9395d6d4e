package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.ActiveSession;
import dev.hermes.state.core.model.SessionCwd;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.SelectField;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Today's agent's plain listings: {@code search_sessions} (every session, children included, most
 * recently active first) and {@code distinct_session_cwds} (the working directories sessions ran in).
 */
public final class RecentSessions {
    private static final Messages LATEST = MESSAGES.as("latest_message");
    private static final Field<Instant> LATEST_MESSAGE_AT =
            DSL.select(DSL.max(LATEST.TIMESTAMP)).from(LATEST).where(LATEST.SESSION_ID.eq(SESSIONS.ID)).asField();
    private static final Field<Instant> LAST_ACTIVE =
            DSL.coalesce(LATEST_MESSAGE_AT, (Field<?>) SESSIONS.STARTED_AT).as("last_active");

    /**
     * search_sessions: sessions of {@code source} (null or empty: all), by their latest message (else
     * start), then start, then id, all descending: a total order, so pages never overlap.
     */
    public List<ActiveSession> byLastActive(Transaction transaction, @Nullable String source, int limit, int offset) {
        Condition filter = source == null || source.isEmpty() ? DSL.noCondition() : SESSIONS.SOURCE.eq(source);
        List<SelectField<?>> columns = new ArrayList<>(transaction.schema().fields(SESSIONS));
        columns.add(LAST_ACTIVE);
        return transaction.dsl().select(columns).from(SESSIONS)
                .where(filter)
                .orderBy(DSL.field(DSL.name(LAST_ACTIVE.getName())).desc(), SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .limit(limit)
                .offset(offset)
                .fetch(row -> new ActiveSession(Rows.session(row), row.get(LAST_ACTIVE)));
    }

    /**
     * distinct_session_cwds: each non-blank working directory (blank: only spaces), with its number of
     * sessions (children and branches count: they ran there too) and its latest end (else start);
     * archived sessions only with {@code includeArchived}; by directory. Empty on a file without the
     * {@code cwd} column.
     */
    public List<SessionCwd> cwds(Transaction transaction, boolean includeArchived) {
        if (!transaction.schema().has(SESSIONS.CWD)) {
            return List.of();
        }
        Condition filter = SESSIONS.CWD.isNotNull().and(DSL.trim(SESSIONS.CWD).ne(DSL.inline("")));
        if (!includeArchived && transaction.schema().has(SESSIONS.ARCHIVED)) {
            filter = filter.and(DSL.condition("{0} = 0", SESSIONS.ARCHIVED));
        }
        Field<Integer> sessions = DSL.count().as("sessions");
        Field<Instant> lastActive = DSL.max(DSL.coalesce(SESSIONS.ENDED_AT, SESSIONS.STARTED_AT)).as("last_active");
        return transaction.dsl().select(SESSIONS.CWD, sessions, lastActive)
                .from(SESSIONS)
                .where(filter)
                .groupBy(SESSIONS.CWD)
                .orderBy(SESSIONS.CWD)
                .fetch(row -> new SessionCwd(row.get(SESSIONS.CWD), row.get(sessions), row.get(lastActive)));
    }
}
