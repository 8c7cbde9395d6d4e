package dev.hermes.state.core.copy;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.rows.EpochSeconds;
import org.jooq.impl.DSL;

import static dev.hermes.state.core.copy.CopyQueries.inList;
import static dev.hermes.state.core.copy.CopyQueries.insert;
import static dev.hermes.state.core.copy.CopyQueries.names;
import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * One copy's statements that read or write whole rows: the columns both stores have ({@link CopiedTable}),
 * paged by keyset (sessions by id, a session's messages by (timestamp, id), all messages by id).
 */
final class RowQueries {
    final CopiedTable sessions;
    final CopiedTable messages;

    final PreparedQuery firstSessions;
    final PreparedQuery nextSessions;
    final PreparedQuery sessionById;
    final PreparedQuery sessionsIn;
    final PreparedQuery firstMessagesOf;
    final PreparedQuery nextMessagesOf;
    final PreparedQuery messagesById;
    final PreparedQuery insertSession;
    final PreparedQuery insertMessage;
    final PreparedQuery insertMessageNewId;

    RowQueries(CopiedTable sessions, CopiedTable messages) {
        this.sessions = sessions;
        this.messages = messages;
        this.firstSessions = PreparedQuery.of(() -> DSL
                .select(sessions.fields()).from(SESSIONS)
                .orderBy(SESSIONS.ID)
                .limit(DSL.param("limit", Integer.class)), "limit");
        this.nextSessions = PreparedQuery.of(() -> DSL
                .select(sessions.fields()).from(SESSIONS)
                .where(SESSIONS.ID.gt(DSL.param("after", String.class)))
                .orderBy(SESSIONS.ID)
                .limit(DSL.param("limit", Integer.class)), "after", "limit");
        this.sessionById = PreparedQuery.of(() -> DSL
                .select(sessions.fields()).from(SESSIONS)
                .where(SESSIONS.ID.eq(DSL.param("id", String.class))), "id");
        this.sessionsIn = PreparedQuery.of(() -> DSL
                .select(sessions.fields()).from(SESSIONS)
                .where(SESSIONS.ID.in(inList("id", String.class))), names("id"));
        this.firstMessagesOf = PreparedQuery.of(() -> DSL
                .select(messages.fields()).from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
                .limit(DSL.param("limit", Integer.class)), "sessionId", "limit");
        this.nextMessagesOf = PreparedQuery.of(() -> DSL
                .select(messages.fields()).from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .and(DSL.row(EpochSeconds.column(MESSAGES.TIMESTAMP), MESSAGES.ID)
                    .gt(DSL.row(DSL.param("timestamp", Double.class), DSL.param("id", Long.class))))
                .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
                .limit(DSL.param("limit", Integer.class)), "sessionId", "timestamp", "id", "limit");
        this.messagesById = PreparedQuery.of(() -> DSL
                .select(messages.fields()).from(MESSAGES)
                .where(MESSAGES.ID.gt(DSL.param("after", Long.class)))
                .orderBy(MESSAGES.ID)
                .limit(DSL.param("limit", Integer.class)), "after", "limit");

        // every column, the source's values as they are (ids included)
        this.insertSession = insert(sessions, false);
        this.insertMessage = insert(messages, false);
        // every column but the id, which the target generates (an append's renumbered messages)
        this.insertMessageNewId = insert(messages, true);
    }
}
