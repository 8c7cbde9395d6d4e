package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.RichSession;
import org.jooq.Field;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * list_cron_job_runs: the sessions one cron job ran, found by their ids ({@code cron_<job>_<time>})
 * with a range over the id index rather than a substring scan of every cron session, so the work
 * grows with the page asked for and not with the whole cron history.
 */
public final class CronRuns {
    private final Backend backend;

    public CronRuns(Backend backend) {
        this.backend = backend;
    }

    /** The job's runs (source {@code cron}), newest first, with preview and last activity; a page of them. */
    public List<RichSession> runs(Transaction transaction, String jobId, int limit, int offset) {
        String prefix = "cron_" + jobId + "_";
        // every id that starts with the prefix, and nothing else, lies in [prefix, prefix with its last character + 1)
        String end = prefix.substring(0, prefix.length() - 1) + (char) ('_' + 1);
        Field<String> id = backend.bytewise(SESSIONS.ID);
        return SessionPreviews.select(transaction)
                .where(SESSIONS.SOURCE.eq(DSL.inline("cron")))
                .and(id.ge(DSL.val(prefix)))
                .and(id.lt(DSL.val(end)))
                .orderBy(SESSIONS.STARTED_AT.desc(), id.desc())
                .limit(limit)
                .offset(offset)
                .fetch(SessionPreviews.rows(backend));
    }
}
