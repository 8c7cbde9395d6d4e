package dev.hermes.state.core.messages;

import dev.hermes.state.StateIOException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.backend.WriteStamp;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.sessions.Lineage;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.rows.StoredContent;
import dev.hermes.state.core.sessions.NewSessionRow;
import dev.hermes.state.core.sessions.Sessions;
import dev.hermes.state.core.sessions.SessionTitles;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static dev.hermes.state.db.Tables.HERMES_STATE_WINDOW;
import static dev.hermes.state.db.Tables.HERMES_STATE_WINDOW_MESSAGE;
import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Conversation windows: the list of messages a chat memory returns, kept beside the session that
 * holds every message ever saved (see memory/DESIGN-memory.md). A window is a row of
 * {@code hermes_state_window} (the session, its started_at, when it was saved) and its messages in
 * order, rows of {@code hermes_state_window_message}; both are hermes-state's own tables, which the
 * Python agent never reads or changes, so its deletes leave window rows behind: reads join them to
 * the messages by id <em>and</em> session (ids are never reused), and a window whose session has
 * another started_at belongs to an earlier, deleted session of that id and is ignored (compared as
 * stored, not with a clock: a clock may go back).
 *
 * <p>A save extends or trims the tip's history (appending only new messages through the path of
 * append_message, never deleting or re-inserting one), or, when it rewrites history, continues the
 * conversation in a compression child, Hermes' own model.
 */
public final class Windows {
    private static final String SYSTEM = "system";
    /** Hermes' session ids: {@code YYYYMMDD_HHMMSS_<6 hex>}, in local time, as {@code datetime.now()} gives it. */
    private static final DateTimeFormatter SESSION_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");

    /** The session's window, when it has one saved for this very session (not an earlier one of its id). */
    private static final PreparedQuery SAVED = PreparedQuery.of(() -> DSL
            .select(HERMES_STATE_WINDOW.SESSION_ID)
            .from(HERMES_STATE_WINDOW)
            .join(SESSIONS).on(SESSIONS.ID.eq(HERMES_STATE_WINDOW.SESSION_ID))
            .where(HERMES_STATE_WINDOW.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(EpochSeconds.column(HERMES_STATE_WINDOW.SESSION_STARTED_AT).eq(EpochSeconds.column(SESSIONS.STARTED_AT))),
            "sessionId");
    private static final PreparedQuery STARTED_AT = PreparedQuery.of(() -> DSL
            .select(EpochSeconds.column(SESSIONS.STARTED_AT))
            .from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");
    /** The window's messages in window order; a row whose message is gone (deleted by the Python agent) is skipped. */
    private static final PreparedQuery ROWS = PreparedQuery.of(schema -> DSL
            .select(schema.fields(MESSAGES))
            .from(HERMES_STATE_WINDOW_MESSAGE)
            .join(MESSAGES).on(MESSAGES.ID.eq(HERMES_STATE_WINDOW_MESSAGE.MESSAGE_ID))
            .and(MESSAGES.SESSION_ID.eq(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID))
            .where(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(HERMES_STATE_WINDOW_MESSAGE.POSITION), "sessionId");
    /**
     * What a save starts from: every row of the session's window, in window order, with what a save
     * compares of its message when that is still the session's (a left join: the rows of messages the
     * Python agent deleted are there to be dropped), and the session's end_reason; no row when the window
     * belongs to an earlier session of the id. Read as the driver returns the columns ({@link #current}).
     */
    private static final PreparedQuery CURRENT = PreparedQuery.of(() -> DSL
            .select(HERMES_STATE_WINDOW_MESSAGE.POSITION, HERMES_STATE_WINDOW_MESSAGE.MESSAGE_ID, SESSIONS.END_REASON)
            .select(compared().subList(2, compared().size()))
            .from(HERMES_STATE_WINDOW_MESSAGE)
            .join(HERMES_STATE_WINDOW).on(HERMES_STATE_WINDOW.SESSION_ID.eq(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID))
            .join(SESSIONS).on(SESSIONS.ID.eq(HERMES_STATE_WINDOW.SESSION_ID))
            .and(EpochSeconds.column(HERMES_STATE_WINDOW.SESSION_STARTED_AT).eq(EpochSeconds.column(SESSIONS.STARTED_AT)))
            .leftJoin(MESSAGES).on(MESSAGES.ID.eq(HERMES_STATE_WINDOW_MESSAGE.MESSAGE_ID))
            .and(MESSAGES.SESSION_ID.eq(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID))
            .where(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(HERMES_STATE_WINDOW_MESSAGE.POSITION), "sessionId");
    /** What a save compares of a message kept from elsewhere (not in the tip's window). */
    private static final PreparedQuery MESSAGE = PreparedQuery.of(() -> DSL
            .select(compared()).from(MESSAGES)
            .where(MESSAGES.ID.eq(DSL.param("id", Long.class))), "id");
    private static final PreparedQuery CLEAR = PreparedQuery.of(() -> DSL
            .deleteFrom(HERMES_STATE_WINDOW_MESSAGE)
            .where(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.eq(DSL.param("sessionId", String.class))), "sessionId");
    private static final PreparedQuery PLACE = PreparedQuery.of(() -> DSL
            .insertInto(HERMES_STATE_WINDOW_MESSAGE)
            .set(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID, DSL.param("sessionId", String.class))
            .set(HERMES_STATE_WINDOW_MESSAGE.POSITION, DSL.param("position", Long.class))
            .set(HERMES_STATE_WINDOW_MESSAGE.MESSAGE_ID, DSL.param("messageId", Long.class)),
            "sessionId", "position", "messageId");
    private static final PreparedQuery DROP = PreparedQuery.of(() -> DSL
            .deleteFrom(HERMES_STATE_WINDOW_MESSAGE)
            .where(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(HERMES_STATE_WINDOW_MESSAGE.POSITION.eq(DSL.param("position", Long.class))), "sessionId", "position");
    private static final PreparedQuery STAMP = PreparedQuery.of(() -> DSL
            .insertInto(HERMES_STATE_WINDOW)
            .set(HERMES_STATE_WINDOW.SESSION_ID, DSL.param("sessionId", String.class))
            .set(HERMES_STATE_WINDOW.SESSION_STARTED_AT,
                    PreparedQuery.epochSeconds("sessionStartedAt", HERMES_STATE_WINDOW.SESSION_STARTED_AT))
            .set(HERMES_STATE_WINDOW.SAVED_AT, PreparedQuery.epochSeconds("savedAt", HERMES_STATE_WINDOW.SAVED_AT))
            .onConflict(HERMES_STATE_WINDOW.SESSION_ID)
            .doUpdate()
            .set(HERMES_STATE_WINDOW.SESSION_STARTED_AT, DSL.excluded(HERMES_STATE_WINDOW.SESSION_STARTED_AT))
            .set(HERMES_STATE_WINDOW.SAVED_AT, DSL.excluded(HERMES_STATE_WINDOW.SAVED_AT)),
            "sessionId", "sessionStartedAt", "savedAt");
    /** A save of a window that is there already: only its time changes (its session and started_at are the same). */
    private static final PreparedQuery TOUCH = PreparedQuery.of(() -> DSL
            .update(HERMES_STATE_WINDOW)
            .set(HERMES_STATE_WINDOW.SAVED_AT, PreparedQuery.epochSeconds("savedAt", HERMES_STATE_WINDOW.SAVED_AT))
            .where(HERMES_STATE_WINDOW.SESSION_ID.eq(DSL.param("sessionId", String.class))), "savedAt", "sessionId");
    /** A dropped row reused for an added one: the same rows as deleting it and inserting the other, one statement. */
    private static final PreparedQuery MOVE = PreparedQuery.of(() -> DSL
            .update(HERMES_STATE_WINDOW_MESSAGE)
            .set(HERMES_STATE_WINDOW_MESSAGE.POSITION, DSL.param("position", Long.class))
            .set(HERMES_STATE_WINDOW_MESSAGE.MESSAGE_ID, DSL.param("messageId", Long.class))
            .where(HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(HERMES_STATE_WINDOW_MESSAGE.POSITION.eq(DSL.param("from", Long.class))),
            "position", "messageId", "sessionId", "from");

    /**
     * The columns of a message a save compares ({@link #sameMessage}), in {@link #stored}'s order; the
     * window's read ({@link #CURRENT}) leaves out the first two, its rows' message id and session.
     */
    private static List<Field<?>> compared() {
        return List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID,
                MESSAGES.TOOL_NAME, MESSAGES.TOOL_CALLS);
    }

    /**
     * What a save compares of a stored message, as stored: the text columns as the driver returns them
     * (content not decoded, tool_calls as their JSON text).
     */
    private record Stored(long id, String sessionId, String role, @Nullable String content, @Nullable String toolCallId,
                          @Nullable String toolName, @Nullable String toolCalls) {
    }

    /** A row of a window: its place, its message id, and its message while that is still the session's (else null). */
    private record WindowRow(long position, long messageId, @Nullable Stored message) {
    }

    /** The session's window rows ({@link #CURRENT}) and its end_reason (null when it has no rows). */
    private record Current(List<WindowRow> rows, @Nullable String endReason) {
    }

    /**
     * What this store's last save left as its conversation's window: the conversation, its tip (where the
     * window is), the tip's window as {@link #current} would read it now, and the stamp of the save's
     * transaction. Valid only for a save whose stamp comes {@linkplain WriteStamp#directlyAfter directly
     * after} that one: the database is then exactly as the save left it.
     */
    private record LastSave(String conversationId, String tip, Current window, WriteStamp stamp) {
    }

    /** One entry of a window to save: its columns, checked and encoded, and the stored row it keeps (or null). */
    public record Entry(NewMessageRow row, @Nullable Long storedId) {
    }

    private final Backend backend;
    private final Lineage lineage;
    private final Sessions sessions;
    private final Messages messages;
    private final MessageAppends appends;
    private final SessionTitles titles;
    /** Once seen, the tables stay: only a read-only (or not migrated) store on an older file lacks them. */
    private volatile boolean tablesSeen;
    /**
     * The last save's window, so that the next save of the same conversation need not read it again
     * (the read of every row of the window is most of a save's cost); null when there is none to trust.
     * Written and read inside write transactions, one at a time; volatile for the reader's sake anyway.
     */
    private volatile @Nullable LastSave lastSave;

    public Windows(Backend backend, Lineage lineage, Sessions sessions, Messages messages, MessageAppends appends,
                   SessionTitles titles) {
        this.backend = backend;
        this.lineage = lineage;
        this.sessions = sessions;
        this.messages = messages;
        this.appends = appends;
        this.titles = titles;
    }

    /**
     * The window of the conversation's compression tip, in window order; all the tip's messages (as
     * get_messages orders them) when no window was saved there; empty for an unknown conversation.
     */
    public List<Message> load(Transaction transaction, String conversationId) throws SQLException {
        String tip = lineage.compressionTip(transaction, conversationId);
        if (!hasTables(transaction) || SAVED.fetch(transaction, tip).isEmpty()) {
            return messages.of(transaction, tip);
        }
        boolean decode = transaction.schema().v17();
        return ROWS.fetch(transaction, tip).map(row -> Rows.message(row, decode));
    }

    /**
     * Makes {@code window} the conversation's window, creating the session ({@code source}) on the
     * first save. When the window is the tip's history trimmed and extended, the new entries are
     * appended to the tip; otherwise the tip ends with {@code compression} and every entry is written
     * to a new child session. Either way the window's rows become the entries' rows, writing only the
     * rows that changed: a framework's save drops the oldest messages and adds the newest, so the rows
     * it keeps stay where they are and the new ones are placed after them.
     */
    public SavedWindow save(Transaction transaction, MessageAppends.Sql appendSql, String conversationId, String source,
                            List<Entry> window, double now) throws SQLException {
        if (!hasTables(transaction)) {
            throw new StateIOException("This store has no tables for conversation windows (hermes-state creates them"
                    + " when it opens the file read-write and migrates it); nothing was written");
        }
        Optional<WriteStamp> stamp = transaction.writeStamp();
        LastSave last = lastSave;
        lastSave = null;
        Current current;
        String tip;
        if (last != null && stamp.isPresent() && last.conversationId().equals(conversationId)
                && stamp.get().directlyAfter(last.stamp())) {
            // nothing wrote the database since this store's save of this conversation: the tip and its
            // window are what that save left (remembered only when the reads below would find exactly them)
            tip = last.tip();
            current = last.window();
        } else {
            current = current(transaction, conversationId);
            if (!current.rows().isEmpty() && !Lineage.COMPRESSION.equals(current.endReason())) {
                // the session exists (its window is read) and, not ended with compression, is its own tip:
                // both rules of the tip step only from a session that ended so (Lineage#compressionTip)
                tip = conversationId;
            } else {
                sessions.ensure(transaction, conversationId, source, null, now);
                tip = lineage.compressionTip(transaction, conversationId);
                current = current(transaction, tip);
            }
        }
        List<@Nullable Stored> kept = keptRows(transaction, conversationId, tip, window, current.rows());
        boolean extending = extendsHistory(tip, window, kept, backend.storesNulInText(), transaction.schema().v17());
        String target = extending ? tip : continueInChild(transaction, tip, now);
        List<NewMessageRow> fresh = new ArrayList<>();
        for (int i = 0; i < window.size(); i++) {
            if (!extending || kept.get(i) == null) {
                fresh.add(window.get(i).row());
            }
        }
        List<Long> appended = fresh.isEmpty() ? List.of() : appends.appendAll(transaction, appendSql, target, fresh, now);
        List<Long> ids = new ArrayList<>(window.size());
        int next = 0;
        for (int i = 0; i < window.size(); i++) {
            Stored row = extending ? kept.get(i) : null;
            ids.add(row != null ? row.id() : appended.get(next++));
        }
        List<WindowRow> rows = extending ? current.rows() : List.of();
        List<Long> positions = place(transaction, target, rows, ids);
        if (!rows.isEmpty()) {
            // the target's window row is there, for this very session (CURRENT joins on its started_at)
            TOUCH.execute(transaction, now, target);
        } else {
            STAMP.execute(transaction, target, STARTED_AT.fetch(transaction, target).get(0).get(0, Double.class), now);
        }
        if (stamp.isPresent()) {
            lastSave = remembered(transaction, conversationId, target, stamp.get(), extending, current, kept, ids,
                    positions);
        }
        return new SavedWindow(target, ids, fresh.size(), !extending);
    }

    /**
     * What the next save of the conversation may start from, when nothing writes before it: the
     * target's window exactly as {@link #current} would read it after this save, and the target as the
     * tip the next save's own reads would find; null when either is in doubt. Kept rows are as read at
     * the start of this save (nothing in a save changes a message); the new ones are read back, so their
     * text is what the database holds, not what was sent. The target's end_reason is known when it had a
     * window (a save changes no end but of the session it continues from) or is a new child (no end).
     */
    private @Nullable LastSave remembered(Transaction transaction, String conversationId, String target,
                                          WriteStamp stamp, boolean extending, Current before,
                                          List<@Nullable Stored> kept, List<Long> ids, List<Long> positions)
            throws SQLException {
        if (extending && before.rows().isEmpty()) {
            return null; // the target's end_reason was not read (a first save, or a window emptied before)
        }
        String endReason = extending ? before.endReason() : null;
        List<WindowRow> rows = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            Stored message = extending ? kept.get(i) : null;
            if (message == null) {
                long id = ids.get(i);
                message = MESSAGE.query(transaction, found -> Optional.ofNullable(found.next() ? stored(found, 1) : null), id)
                        .orElse(null);
                if (message == null || !message.sessionId().equals(target)) {
                    return null;
                }
            }
            rows.add(new WindowRow(positions.get(i), ids.get(i), message));
        }
        Current window = new Current(List.copyOf(rows), rows.isEmpty() ? null : endReason);
        // the next save takes the conversation id's own window as the tip's when it has rows and the
        // session did not end with compression; otherwise it asks for the compression tip: ask it now
        boolean ownTip = target.equals(conversationId) && !rows.isEmpty() && !Lineage.COMPRESSION.equals(endReason);
        if (!ownTip && !lineage.compressionTip(transaction, conversationId).equals(target)) {
            return null;
        }
        return new LastSave(conversationId, target, window, stamp);
    }

    /**
     * The session's window as {@link #CURRENT} reads it: a row's message is there when its role is
     * (role is NOT NULL in messages), with the row's message id and the session asked for (the join's).
     */
    private static Current current(Transaction transaction, String sessionId) throws SQLException {
        return CURRENT.query(transaction, result -> {
            List<WindowRow> rows = new ArrayList<>();
            String endReason = null;
            while (result.next()) {
                long position = result.getLong(1);
                long messageId = result.getLong(2);
                if (rows.isEmpty()) {
                    endReason = result.getString(3);
                }
                String role = result.getString(4);
                Stored message = role == null ? null : new Stored(messageId, sessionId, role, result.getString(5),
                        result.getString(6), result.getString(7), result.getString(8));
                rows.add(new WindowRow(position, messageId, message));
            }
            return new Current(rows, endReason);
        }, sessionId);
    }

    /** The {@link #compared} columns from column {@code first} on; null when there is no such message. */
    private static @Nullable Stored stored(ResultSet row, int first) throws SQLException {
        long id = row.getLong(first);
        if (row.wasNull()) {
            return null;
        }
        return new Stored(id, Objects.requireNonNull(row.getString(first + 1)), Objects.requireNonNull(row.getString(first + 2)),
                row.getString(first + 3), row.getString(first + 4), row.getString(first + 5), row.getString(first + 6));
    }

    /**
     * Makes {@code ids} the target's window rows. The rows of {@code current} (the target's window; none
     * for a new child) that read as the start of {@code ids} in order, skipping the dropped ones, keep
     * their positions; every other row goes, and the rest of {@code ids} gets positions after the last
     * one (a dropped row is moved there, one statement for a delete and an insert). Positions only order
     * a window: gaps are never read. Returns each id's position.
     */
    private static List<Long> place(Transaction transaction, String target, List<WindowRow> current, List<Long> ids)
            throws SQLException {
        List<Long> positions = new ArrayList<>(ids.size());
        if (current.isEmpty()) {
            // a new child has no rows; a tip may have rows of an earlier session of its id
            CLEAR.execute(transaction, target);
            List<@Nullable Object[]> rows = new ArrayList<>(ids.size());
            for (int position = 0; position < ids.size(); position++) {
                rows.add(new Object[]{target, (long) position, ids.get(position)});
                positions.add((long) position);
            }
            PLACE.executeBatch(transaction, rows);
            return positions;
        }
        List<Long> dropped = new ArrayList<>();
        int old = 0;
        int placed = 0;
        while (placed < ids.size()) {
            long id = ids.get(placed);
            int match = old;
            while (match < current.size() && current.get(match).messageId() != id) {
                match++;
            }
            if (match == current.size()) {
                break;
            }
            for (; old < match; old++) {
                dropped.add(current.get(old).position());
            }
            positions.add(current.get(match).position());
            old++;
            placed++;
        }
        long last = current.get(current.size() - 1).position();
        for (; old < current.size(); old++) {
            dropped.add(current.get(old).position());
        }
        List<@Nullable Object[]> moved = new ArrayList<>();
        List<@Nullable Object[]> deleted = new ArrayList<>();
        List<@Nullable Object[]> added = new ArrayList<>();
        for (int i = placed; i < ids.size(); i++) {
            long position = last + 1 + i - placed;
            positions.add(position);
            int reuse = i - placed;
            if (reuse < dropped.size()) {
                moved.add(new Object[]{position, ids.get(i), target, dropped.get(reuse)});
            } else {
                added.add(new Object[]{target, position, ids.get(i)});
            }
        }
        for (int d = moved.size(); d < dropped.size(); d++) {
            deleted.add(new Object[]{target, dropped.get(d)});
        }
        MOVE.executeBatch(transaction, moved);
        DROP.executeBatch(transaction, deleted);
        PLACE.executeBatch(transaction, added);
        return positions;
    }

    /** Deletes the windows of these sessions (delete_session, clear_messages, a conversation's delete). */
    public void forget(Transaction transaction, Collection<String> sessionIds) throws SQLException {
        if (hasTables(transaction)) {
            forget(transaction.dsl(), HERMES_STATE_WINDOW.SESSION_ID.in(sessionIds),
                    HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.in(sessionIds));
        }
    }

    /** Deletes the windows whose session is gone (a prune's, and those the Python agent's deletes left behind). */
    public void forgetOrphans(Transaction transaction) throws SQLException {
        if (hasTables(transaction)) {
            forget(transaction.dsl(), HERMES_STATE_WINDOW.SESSION_ID.notIn(DSL.select(SESSIONS.ID).from(SESSIONS)),
                    HERMES_STATE_WINDOW_MESSAGE.SESSION_ID.notIn(DSL.select(SESSIONS.ID).from(SESSIONS)));
        }
    }

    private static void forget(DSLContext dsl, Condition windows, Condition rows) {
        dsl.deleteFrom(HERMES_STATE_WINDOW_MESSAGE).where(rows).execute();
        dsl.deleteFrom(HERMES_STATE_WINDOW).where(windows).execute();
    }

    private boolean hasTables(Transaction transaction) throws SQLException {
        if (!tablesSeen && backend.hasTable(transaction, HERMES_STATE_WINDOW)
                && backend.hasTable(transaction, HERMES_STATE_WINDOW_MESSAGE)) {
            tablesSeen = true;
        }
        return tablesSeen;
    }

    /**
     * For each entry, the stored row it keeps: a message of the conversation (its sessions from
     * {@code conversationId} to the tip); null for a new entry, and for an id that is not such a
     * message (deleted, or of another conversation), which is then stored as new: never an error,
     * never a lost message. The rows of the tip's {@code current} window are read already; only an id
     * from elsewhere is looked up.
     */
    private List<@Nullable Stored> keptRows(Transaction transaction, String conversationId, String tip,
                                            List<Entry> window, List<WindowRow> current) throws SQLException {
        Map<Long, Stored> inWindow = new HashMap<>();
        for (WindowRow row : current) {
            Stored message = row.message();
            if (message != null) {
                inWindow.put(message.id(), message);
            }
        }
        List<@Nullable Stored> kept = new ArrayList<>(window.size());
        List<String> conversation = null;
        for (Entry entry : window) {
            Long id = entry.storedId();
            Stored row = id == null ? null : inWindow.get(id);
            if (id != null && row == null) {
                row = MESSAGE.query(transaction, found -> Optional.ofNullable(found.next() ? stored(found, 1) : null), id)
                        .orElse(null);
            }
            if (row != null && !row.sessionId().equals(tip)) {
                if (conversation == null) {
                    conversation = lineage.conversation(transaction, conversationId);
                }
                if (!conversation.contains(row.sessionId())) {
                    row = null;
                }
            }
            kept.add(row);
        }
        return kept;
    }

    /**
     * The window is the tip's history trimmed and extended: every kept row is the tip's and reads as
     * its entry does, kept rows keep their order, and every new message comes after the last kept
     * one. System messages may sit anywhere (the frameworks move a new one to the end, or to the
     * front); the others follow the conversation's order, so that the session reads as it was said.
     */
    private static boolean extendsHistory(String tip, List<Entry> window, List<@Nullable Stored> kept,
                                          boolean nulInText, boolean decode) {
        long lastKept = Long.MIN_VALUE;
        boolean newSinceLastKept = false;
        for (int i = 0; i < window.size(); i++) {
            NewMessageRow entry = window.get(i).row();
            Stored row = kept.get(i);
            boolean system = SYSTEM.equals(entry.role());
            if (row == null) {
                newSinceLastKept |= !system;
                continue;
            }
            if (!row.sessionId().equals(tip) || !sameMessage(row, entry, nulInText, decode)) {
                return false;
            }
            if (!system) {
                if (row.id() <= lastKept || newSinceLastKept) {
                    return false;
                }
                lastKept = row.id();
            }
        }
        return true;
    }

    /**
     * The stored row says what the entry says: role, text, tool call id, tool name and tool calls (as
     * JSON values: the Python agent spaces its JSON differently). A missing text equals an empty one; content
     * is compared as stored text (structured content as this store would write it: {@code decode}, the
     * rules of schema 17, where content behind the marker is structured).
     */
    private static boolean sameMessage(Stored row, NewMessageRow entry, boolean nulInText, boolean decode) {
        return row.role().equals(entry.role())
                && text(asThisStoreWrites(row.content(), nulInText, decode)).equals(text(entry.content()))
                && text(row.toolCallId()).equals(text(entry.toolCallId()))
                && text(row.toolName()).equals(text(entry.toolName()))
                && ((row.toolCalls() == null && entry.toolCalls() == null)
                || Objects.equals(toolCalls(storedToolCalls(row.toolCalls())), toolCalls(entry.toolCalls() == null ? null
                : PythonJson.parse(entry.toolCalls()))));
    }

    /**
     * Stored content as this store would write what it means: text without either engine's marker is
     * itself (so is all text under schema 6's rules); behind a marker it is decoded and encoded again.
     */
    private static @Nullable String asThisStoreWrites(@Nullable String stored, boolean nulInText, boolean decode) {
        if (stored == null || !decode
                || (!stored.startsWith(StoredContent.NUL_MARKER) && !stored.startsWith(StoredContent.SOH_MARKER))) {
            return stored;
        }
        return StoredContent.encode(StoredContent.decode(stored), nulInText);
    }

    private static String text(@Nullable String value) {
        return value == null ? "" : value;
    }

    /** Stored tool_calls decoded as get_messages decodes them (see {@link ToolCalls#value()}). */
    private static @Nullable Object storedToolCalls(@Nullable String stored) {
        return stored == null ? null : ToolCalls.ofJson(stored).value();
    }

    private static @Nullable Object toolCalls(@Nullable Object decoded) {
        return decoded instanceof Collection<?> list && list.isEmpty() ? null : decoded;
    }

    /**
     * Hermes' compression: the tip ends now with {@code compression} (replacing an earlier end: the
     * conversation went on), and a child session that starts now continues it, with the tip's source,
     * user, model, model config and system prompt, and its title's next number in the lineage.
     */
    private String continueInChild(Transaction transaction, String tip, double now) throws SQLException {
        DSLContext dsl = transaction.dsl();
        Record parent = Objects.requireNonNull(dsl.select(SESSIONS.SOURCE, SESSIONS.USER_ID, SESSIONS.MODEL,
                        SESSIONS.MODEL_CONFIG, SESSIONS.SYSTEM_PROMPT, SESSIONS.TITLE)
                .from(SESSIONS).where(SESSIONS.ID.eq(tip)).fetchOne(), "the tip exists");
        sessions.endAgain(transaction, tip, Lineage.COMPRESSION, now);
        String child = newSessionId(dsl, now);
        JSON modelConfig = parent.get(SESSIONS.MODEL_CONFIG);
        sessions.create(transaction, new NewSessionRow(child, parent.get(SESSIONS.SOURCE), parent.get(SESSIONS.USER_ID),
                parent.get(SESSIONS.MODEL), modelConfig == null ? null : modelConfig.data(),
                parent.get(SESSIONS.SYSTEM_PROMPT), tip), now);
        String title = parent.get(SESSIONS.TITLE);
        if (title != null) {
            titles.set(transaction, child, titles.nextInLineage(transaction, SessionTitles.base(title)));
        }
        return child;
    }

    private static String newSessionId(DSLContext dsl, double now) {
        String time = SESSION_ID_TIME.format(Instant.ofEpochMilli((long) (now * 1000)).atZone(ZoneId.systemDefault()));
        while (true) {
            byte[] random = new byte[3];
            ThreadLocalRandom.current().nextBytes(random);
            String id = time + "_" + HexFormat.of().formatHex(random);
            if (!Sessions.exists(dsl, id)) {
                return id;
            }
        }
    }
}
