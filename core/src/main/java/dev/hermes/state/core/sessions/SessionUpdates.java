package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.text.PythonText;
import org.jooq.DSLContext;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The agent's updates of sessions after they were created: a session's model and model_config (after
 * a {@code /model} switch), its billing route, its workspace (cwd and git); the desktop's backfill of
 * repository roots; the archive flag of a whole compression lineage; and the end of continuations a
 * crashed compression left open. An unknown id changes nothing.
 */
public final class SessionUpdates {
    private static final double SECONDS_PER_WEEK = 604_800.0;

    /** update_session_meta: model_config set as given (JSON text, or NULL), the model only when one is given. */
    public int meta(Transaction transaction, String sessionId, @Nullable String modelConfigJson, @Nullable String model) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.MODEL_CONFIG, DSL.val(modelConfigJson, SQLDataType.CLOB).coerce(SQLDataType.JSON))
                .set(SESSIONS.MODEL, DSL.coalesce(DSL.val(model, SESSIONS.MODEL), SESSIONS.MODEL))
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /** update_session_model: the model set unconditionally (token updates only fill a NULL one). */
    public int model(Transaction transaction, String sessionId, @Nullable String model) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.MODEL, model)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /**
     * update_session_billing_route: provider and base URL set unconditionally, the billing mode when
     * given; the system prompt snapshot is cleared, as it names the old model and provider.
     */
    public int billingRoute(Transaction transaction, String sessionId, @Nullable String provider,
                            @Nullable String baseUrl, @Nullable String billingMode) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.BILLING_PROVIDER, provider)
                .set(SESSIONS.BILLING_BASE_URL, baseUrl)
                .set(SESSIONS.BILLING_MODE, DSL.coalesce(DSL.val(billingMode, SESSIONS.BILLING_MODE), SESSIONS.BILLING_MODE))
                .setNull(SESSIONS.SYSTEM_PROMPT)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /**
     * update_session_cwd: the cwd as given; the git branch and repository root only when not blank
     * after stripping (a failed probe never erases what an earlier one found). An empty cwd changes
     * nothing.
     */
    public int cwd(Transaction transaction, String sessionId, String cwd, @Nullable String gitBranch,
                   @Nullable String gitRepoRoot) {
        if (cwd.isEmpty()) {
            return 0;
        }
        String branch = gitBranch == null ? "" : PythonText.strip(gitBranch);
        String repoRoot = gitRepoRoot == null ? "" : PythonText.strip(gitRepoRoot);
        UpdateSetMoreStep<?> update = transaction.dsl().update(SESSIONS).set(SESSIONS.CWD, cwd);
        if (!branch.isEmpty()) {
            update = update.set(SESSIONS.GIT_BRANCH, branch);
        }
        if (!repoRoot.isEmpty()) {
            update = update.set(SESSIONS.GIT_REPO_ROOT, repoRoot);
        }
        return update.where(SESSIONS.ID.eq(sessionId)).execute();
    }

    /**
     * set_session_archived: the session and its whole compression lineage (every ancestor and
     * descendant through compression-ended parents, see {@link CompressionChains}) are archived or
     * unarchived, so that a listing that shows a root projected onto its tip hides or shows the
     * conversation as one. True when any row was there to update.
     */
    public boolean archive(Transaction transaction, String sessionId, boolean archived) {
        DSLContext dsl = transaction.dsl();
        Set<String> lineage = new LinkedHashSet<>(CompressionChains.ancestors(dsl, sessionId));
        lineage.addAll(CompressionChains.descendants(dsl, sessionId));
        int changed = 0;
        for (List<String> chunk : Chunks.of(lineage)) {
            changed += dsl.update(SESSIONS).set(SESSIONS.ARCHIVED, archived).where(SESSIONS.ID.in(chunk)).execute();
        }
        return changed > 0;
    }

    /**
     * finalize_orphaned_compression_sessions: ends (reason {@code orphaned_compression}, at {@code now})
     * every continuation that was never finished: started more than a week before {@code now}, not
     * ended, no API call made, with messages, and a parent ended by compression. Its messages stay.
     * Returns how many were ended.
     */
    public int finalizeOrphanedCompressions(Transaction transaction, double now) {
        var parent = SESSIONS.as("p");
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.ENDED_AT, DSL.val(now, SQLDataType.DOUBLE).coerce(SESSIONS.ENDED_AT))
                .set(SESSIONS.END_REASON, DSL.inline("orphaned_compression"))
                .where(SESSIONS.API_CALL_COUNT.eq(DSL.inline(0L)))
                .and(SESSIONS.END_REASON.isNull())
                .and(SESSIONS.ENDED_AT.isNull())
                .and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(now - SECONDS_PER_WEEK))
                .and(SESSIONS.PARENT_SESSION_ID.isNotNull())
                .andExists(DSL.selectOne().from(parent)
                        .where(parent.ID.eq(SESSIONS.PARENT_SESSION_ID))
                        .and(parent.END_REASON.eq(DSL.inline("compression")))
                        .and(parent.ENDED_AT.isNotNull()))
                .andExists(DSL.selectOne().from(MESSAGES).where(MESSAGES.SESSION_ID.eq(SESSIONS.ID)))
                .execute();
    }

    /**
     * backfill_repo_roots: for each cwd with a non-empty root, the sessions in that cwd that have no
     * root yet (NULL or empty) get it; a recorded root is never replaced. Returns the rows changed.
     */
    public int backfillRepoRoots(Transaction transaction, Map<String, String> cwdToRoot) {
        DSLContext dsl = transaction.dsl();
        int changed = 0;
        for (Map.Entry<String, String> pair : cwdToRoot.entrySet()) {
            String cwd = pair.getKey();
            String root = pair.getValue();
            if (cwd == null || cwd.isEmpty() || root == null || root.isEmpty()) {
                continue;
            }
            changed += dsl.update(SESSIONS)
                    .set(SESSIONS.GIT_REPO_ROOT, root)
                    .where(SESSIONS.CWD.eq(cwd))
                    .and(DSL.coalesce(SESSIONS.GIT_REPO_ROOT, DSL.inline("")).eq(DSL.inline("")))
                    .execute();
        }
        return changed;
    }
}
