package dev.hermes.state.core.copy;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.rows.EpochSeconds;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The statements of a copy, on the generated tables, kept prepared on each side's connection. Rows are
 * read whole (every column of the generated table, in its order: {@link CopiedTable}) and paged by
 * keyset: sessions by id, a session's messages by (timestamp, id), all messages by id. Lookups by a
 * list of values take a fixed {@value #IN_LIST} values, the unused ones NULL (which matches nothing),
 * so that each is one statement whatever the list's length.
 */
final class CopyQueries {
    static final int IN_LIST = 100;

    static final PreparedQuery FIRST_SESSIONS = PreparedQuery.of(() -> DSL
            .select(CopiedTable.SESSIONS_TABLE.fields()).from(SESSIONS)
            .orderBy(SESSIONS.ID)
            .limit(DSL.param("limit", Integer.class)), "limit");
    static final PreparedQuery NEXT_SESSIONS = PreparedQuery.of(() -> DSL
            .select(CopiedTable.SESSIONS_TABLE.fields()).from(SESSIONS)
            .where(SESSIONS.ID.gt(DSL.param("after", String.class)))
            .orderBy(SESSIONS.ID)
            .limit(DSL.param("limit", Integer.class)), "after", "limit");
    static final PreparedQuery SESSION_BY_ID = PreparedQuery.of(() -> DSL
            .select(CopiedTable.SESSIONS_TABLE.fields()).from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("id", String.class))), "id");
    static final PreparedQuery SESSION_IDS_IN = PreparedQuery.of(() -> DSL
            .select(SESSIONS.ID).from(SESSIONS)
            .where(SESSIONS.ID.in(inList("id", String.class))), names("id"));
    static final PreparedQuery SESSIONS_IN = PreparedQuery.of(() -> DSL
            .select(CopiedTable.SESSIONS_TABLE.fields()).from(SESSIONS)
            .where(SESSIONS.ID.in(inList("id", String.class))), names("id"));
    static final PreparedQuery TITLES_IN = PreparedQuery.of(() -> DSL
            .select(SESSIONS.ID, SESSIONS.TITLE).from(SESSIONS)
            .where(SESSIONS.TITLE.in(inList("title", String.class))), names("title"));
    static final PreparedQuery MESSAGE_IDS_TAKEN = PreparedQuery.of(() -> DSL
            .selectCount().from(MESSAGES)
            .where(MESSAGES.ID.in(inList("id", Long.class))), names("id"));

    static final PreparedQuery FIRST_MESSAGES_OF = PreparedQuery.of(() -> DSL
            .select(CopiedTable.MESSAGES_TABLE.fields()).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
            .limit(DSL.param("limit", Integer.class)), "sessionId", "limit");
    static final PreparedQuery NEXT_MESSAGES_OF = PreparedQuery.of(() -> DSL
            .select(CopiedTable.MESSAGES_TABLE.fields()).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(DSL.row(EpochSeconds.column(MESSAGES.TIMESTAMP), MESSAGES.ID)
                    .gt(DSL.row(DSL.param("timestamp", Double.class), DSL.param("id", Long.class))))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
            .limit(DSL.param("limit", Integer.class)), "sessionId", "timestamp", "id", "limit");
    /** A session's message ids and timestamps, in (timestamp, id) order: the order of its index. */
    static final PreparedQuery FIRST_MESSAGE_IDS_OF = PreparedQuery.of(() -> DSL
            .select(MESSAGES.ID, EpochSeconds.column(MESSAGES.TIMESTAMP)).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
            .limit(DSL.param("limit", Integer.class)), "sessionId", "limit");
    static final PreparedQuery NEXT_MESSAGE_IDS_OF = PreparedQuery.of(() -> DSL
            .select(MESSAGES.ID, EpochSeconds.column(MESSAGES.TIMESTAMP)).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(DSL.row(EpochSeconds.column(MESSAGES.TIMESTAMP), MESSAGES.ID)
                    .gt(DSL.row(DSL.param("timestamp", Double.class), DSL.param("id", Long.class))))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
            .limit(DSL.param("limit", Integer.class)), "sessionId", "timestamp", "id", "limit");
    static final PreparedQuery MESSAGES_BY_ID = PreparedQuery.of(() -> DSL
            .select(CopiedTable.MESSAGES_TABLE.fields()).from(MESSAGES)
            .where(MESSAGES.ID.gt(DSL.param("after", Long.class)))
            .orderBy(MESSAGES.ID)
            .limit(DSL.param("limit", Integer.class)), "after", "limit");

    /** Every column, the source's values as they are (ids included). */
    static final PreparedQuery INSERT_SESSION = insert(CopiedTable.SESSIONS_TABLE, false);
    static final PreparedQuery INSERT_MESSAGE = insert(CopiedTable.MESSAGES_TABLE, false);
    /** Every column but the id, which the target generates (an append's renumbered messages). */
    static final PreparedQuery INSERT_MESSAGE_NEW_ID = insert(CopiedTable.MESSAGES_TABLE, true);

    private CopyQueries() {
    }

    /**
     * An insert of the columns with one parameter each, bound as stored: text as text (JSON columns
     * too: the text is whatever the source holds), integers, epoch-second doubles.
     */
    private static PreparedQuery insert(CopiedTable table, boolean withoutId) {
        List<Field<?>> columns = new ArrayList<>(table.fields());
        if (withoutId) {
            columns.remove(MESSAGES.ID);
        }
        List<String> names = columns.stream().map(Field::getName).toList();
        return PreparedQuery.of(() -> DSL.insertInto(table.table())
                .columns(columns)
                .values(columns.stream().map(column -> parameter(table, column)).toList()), names.toArray(String[]::new));
    }

    private static Field<?> parameter(CopiedTable table, Field<?> column) {
        DataType<?> stored = switch (table.kind(table.indexOf(column))) {
            case TEXT -> SQLDataType.CLOB;
            case INTEGER -> SQLDataType.BIGINT;
            case REAL -> SQLDataType.DOUBLE;
        };
        return DSL.param(column.getName(), stored).coerce(column.getDataType());
    }

    private static <T> List<Field<T>> inList(String name, Class<T> type) {
        return IntStream.range(0, IN_LIST).<Field<T>>mapToObj(i -> DSL.param(name + i, type)).toList();
    }

    private static String[] names(String name) {
        return IntStream.range(0, IN_LIST).mapToObj(i -> name + i).toArray(String[]::new);
    }

    /** {@code values} cut into lists of {@value #IN_LIST}, the last one filled up with nulls. */
    static List<Object[]> inLists(List<?> values) {
        List<Object[]> lists = new ArrayList<>();
        for (int from = 0; from < values.size(); from += IN_LIST) {
            Object[] list = new Object[IN_LIST];
            List<?> part = values.subList(from, Math.min(values.size(), from + IN_LIST));
            for (int i = 0; i < part.size(); i++) {
                list[i] = part.get(i);
            }
            lists.add(list);
        }
        return lists;
    }
}
