package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.rows.StoredContent;
import dev.hermes.state.core.text.PythonText;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.RecordMapper;
import org.jooq.SelectJoinStep;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The preview and last activity the agent adds to a session row, wherever it lists sessions (the rich
 * listing, a cron job's runs, the Telegram picker of unlinked sessions): the first user message as
 * stored, CR and LF as spaces, stripped, 60 characters and "..." when longer; the newest message's
 * time, else the session's start. These read the stored text as it is (no active filter, no decoding
 * of structured content), as the agent's queries do.
 */
public final class SessionPreviews {
    /** Hermes reads 63 characters of the first user message and shows 60 of them. */
    private static final int READ = 63;
    private static final int SHOWN = 60;
    private static final Messages FIRST = MESSAGES.as("first_user_message");
    private static final Messages LATEST = MESSAGES.as("latest_message");

    /**
     * The first 63 characters of the session's first user message with content, CR and LF as spaces.
     * The agent replaces before it cuts; cutting first is the same text (each replacement is one
     * character for one) and replaces in 63 characters instead of the whole message.
     */
    static final Field<String> PREVIEW_RAW = DSL.select(
                    DSL.replace(DSL.replace(DSL.substring(FIRST.CONTENT, DSL.inline(1), DSL.inline(READ)),
                            DSL.inline("\n"), DSL.inline(" ")), DSL.inline("\r"), DSL.inline(" ")))
            .from(FIRST)
            .where(FIRST.SESSION_ID.eq(SESSIONS.ID))
            .and(FIRST.ROLE.eq(DSL.inline("user")))
            .and(FIRST.CONTENT.isNotNull())
            .orderBy(FIRST.TIMESTAMP, FIRST.ID)
            .limit(DSL.inline(1))
            .asField("preview_raw");

    /** The newest message's time, else the session's start (to order by without selecting it). */
    public static final Field<Instant> LAST_ACTIVE_VALUE = DSL.coalesce(
            DSL.select(DSL.max(LATEST.TIMESTAMP)).from(LATEST).where(LATEST.SESSION_ID.eq(SESSIONS.ID)).<Instant>asField(),
            SESSIONS.STARTED_AT);

    /** {@link #LAST_ACTIVE_VALUE} selected as {@code last_active}. */
    public static final Field<Instant> LAST_ACTIVE = LAST_ACTIVE_VALUE.as("last_active");

    private SessionPreviews() {
    }

    /** {@code SELECT <every column>, preview_raw, last_active FROM sessions}. */
    public static SelectJoinStep<Record> select(Transaction transaction) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).select(PREVIEW_RAW, LAST_ACTIVE).from(SESSIONS);
    }

    /** A row of {@link #select} as a listed session, its preview by {@link #preview}. */
    public static RecordMapper<Record, RichSession> rows(Backend backend) {
        boolean nulInText = backend.storesNulInText();
        return row -> new RichSession(Rows.session(row), preview(row.get(PREVIEW_RAW), nulInText), row.get(LAST_ACTIVE), null);
    }

    /**
     * Hermes' preview rule on the (at most 63) characters {@link #PREVIEW_RAW} read: strip Python-style
     * whitespace; over 60 characters keep 60 and add "..."; characters are code points, so an emoji
     * counts once. Structured content previews as "": SQLite's substr and replace stop at the NUL its
     * marker starts with, and a PostgreSQL store (whose marker is SOH, {@code nulInText} false) shows the same.
     */
    public static String preview(@Nullable String raw, boolean nulInText) {
        if (raw == null || (!nulInText && raw.startsWith(StoredContent.SOH_MARKER))) {
            return "";
        }
        String text = PythonText.strip(raw);
        if (text.codePointCount(0, text.length()) <= SHOWN) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, SHOWN)) + "...";
    }
}
