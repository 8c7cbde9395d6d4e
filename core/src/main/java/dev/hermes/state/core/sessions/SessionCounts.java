package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SessionCountQuery;
import org.jooq.Condition;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * session_count as today's agent counts: the rich listing's filters ({@link SessionFilters}), archived
 * sessions left out unless asked for, and with {@code excludeChildren} only what the listing lists. On a
 * store that follows version 6 (a file without those columns) the defaults count exactly what
 * version 6 counted: every session of the source.
 */
public final class SessionCounts {
    private final Backend backend;
    private final SessionKinds kinds;

    public SessionCounts(Backend backend, SessionKinds kinds) {
        this.backend = backend;
        this.kinds = kinds;
    }

    public long count(Transaction transaction, SessionCountQuery query) {
        StoreSchema schema = transaction.schema();
        Condition filter = SessionFilters.common(backend, schema, query.source(), query.excludeSources(),
                query.cwdPrefix(), query.minMessageCount(), query.includeArchived(), query.archivedOnly(), query.model(),
                query.startedFrom(), query.startedBefore());
        if (query.excludeChildren()) {
            filter = filter.and(kinds.isListed(SESSIONS, schema));
        }
        return transaction.dsl().fetchCount(SESSIONS, filter);
    }
}
