package dev.hermes.state.cli.launch;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.db.tables.Messages;
import dev.hermes.state.sqlite.SqliteConnections;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Start-up on two cores: while the main thread builds picocli's model of the command (reflection over
 * its annotations, about a third of a cold {@code sessions list}), a daemon thread does what every store
 * command reaches next: jOOQ's DSL context (its static initialiser builds the data types of every
 * dialect), sqlite-jdbc's connection configuration (its date formats, whose first calendar walks every
 * locale of the JDK), and one rendering of a query shaped like the listing's (a select with scalar
 * subqueries, an IN subquery, order and limit), which loads and initialises the rendering classes the
 * store's first query needs (measured: about 50 ms of CPU, which the main thread's first listing then
 * no longer spends). The main thread {@linkplain #awaitDone waits} for it before it opens a store, so
 * the two threads never initialise jOOQ's classes at the same time (its static initialisers refer to
 * each other; two threads entering such a cycle from two ends would wait on each other). A failure
 * here is left to the real use to report.
 */
public final class StartupWarmup {
    private static volatile @Nullable Thread running;

    private StartupWarmup() {
    }

    /** Starts the warm-up thread; the process waits for it only in {@link #awaitDone}. */
    public static void start() {
        Thread thread = new Thread(StartupWarmup::run, "hermes-state-warmup");
        thread.setDaemon(true);
        running = thread;
        thread.start();
    }

    /** Returns once the warm-up (if one was started) has ended. */
    public static void awaitDone() {
        Thread thread = running;
        if (thread == null) {
            return;
        }
        try {
            thread.join();
            running = null;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt(); // the caller's next blocking call sees it
        }
    }

    private static void run() {
        try {
            DSLContext dsl = DSL.using(SQLDialect.SQLITE);
            SqliteConnections.config(RetryPolicy.HERMES, true);
            dsl.render(listingShapedQuery());
        } catch (RuntimeException | LinkageError ignored) {
            // the command's own use of these classes reports the problem
        }
    }

    /** A query of the listing's shape (its result is thrown away: only the classes it loads matter). */
    static org.jooq.Select<?> listingShapedQuery() {
        Messages first = MESSAGES.as("first_user_message");
        return DSL.select(SESSIONS.fields())
                .select(DSL.select(DSL.replace(DSL.substring(first.CONTENT, DSL.inline(1), DSL.inline(63)),
                                        DSL.inline("\n"), DSL.inline(" ")))
                                .from(first)
                                .where(first.SESSION_ID.eq(SESSIONS.ID))
                                .and(first.ROLE.eq(DSL.inline("user")))
                                .and(first.CONTENT.isNotNull())
                                .orderBy(first.TIMESTAMP, first.ID)
                                .limit(DSL.inline(1))
                                .asField("preview_raw"),
                        DSL.coalesce(DSL.select(DSL.max(MESSAGES.TIMESTAMP)).from(MESSAGES)
                                .where(MESSAGES.SESSION_ID.eq(SESSIONS.ID)).asField(), SESSIONS.STARTED_AT).as("last_active"))
                .from(SESSIONS)
                .where(SESSIONS.ID.in(DSL.select(SESSIONS.ID).from(SESSIONS)
                        .where(SESSIONS.PARENT_SESSION_ID.isNull())
                        .orderBy(SESSIONS.STARTED_AT.desc())
                        .limit(21L)
                        .offset(0)))
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc());
    }
}
