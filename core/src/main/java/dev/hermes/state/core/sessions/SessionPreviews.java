package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.text.PythonText;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectJoinStep;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Session rows with the preview and last activity the agent adds to them outside its rich listing
 * (a cron job's runs, the Telegram picker of unlinked sessions): the first user message as stored, CR
 * and LF as spaces, stripped, 60 characters and "..." when longer; the newest message's time, else
 * the session's start. These read the stored text as it is (no active filter, no decoding of
 * structured content), as the agent's queries do.
 */
public final class SessionPreviews {
    private static final int READ = 63;
    private static final int SHOWN = 60;
    private static final Messages FIRST = MESSAGES.as("first_user_message");
    private static final Messages LATEST = MESSAGES.as("latest_message");

    static final Field<String> PREVIEW_RAW = DSL.select(
                    DSL.substring(DSL.replace(DSL.replace(FIRST.CONTENT, DSL.inline("\n"), DSL.inline(" ")),
                            DSL.inline("\r"), DSL.inline(" ")), DSL.inline(1), DSL.inline(READ)))
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

    public static RichSession row(Record row) {
        return new RichSession(Rows.session(row), preview(row.get(PREVIEW_RAW)), row.get(LAST_ACTIVE), null);
    }

    static String preview(@Nullable String raw) {
        String text = raw == null ? "" : PythonText.strip(raw);
        if (text.codePointCount(0, text.length()) <= SHOWN) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, SHOWN)) + "...";
    }
}
