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
 * The statements of a copy that do not depend on the columns it carries, on the generated tables, kept
 * prepared on each side's connection (those that read or write whole rows are a copy's own: {@link
 * RowQueries}). Lookups by a list of values take a fixed {@value #IN_LIST} values, the unused ones NULL
 * (which matches nothing), so that each is one statement whatever the list's length.
 */
final class CopyQueries {
    static final int IN_LIST = 100;

    static final PreparedQuery SESSION_IDS_IN = PreparedQuery.of(() -> DSL
            .select(SESSIONS.ID).from(SESSIONS)
            .where(SESSIONS.ID.in(inList("id", String.class))), names("id"));
    static final PreparedQuery TITLES_IN = PreparedQuery.of(() -> DSL
            .select(SESSIONS.ID, SESSIONS.TITLE).from(SESSIONS)
            .where(SESSIONS.TITLE.in(inList("title", String.class))), names("title"));
    static final PreparedQuery MESSAGE_IDS_TAKEN = PreparedQuery.of(() -> DSL
            .selectCount().from(MESSAGES)
            .where(MESSAGES.ID.in(inList("id", Long.class))), names("id"));

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
    private CopyQueries() {
    }

    /**
     * An insert of the columns with one parameter each, bound as stored: text as text (JSON columns
     * too: the text is whatever the source holds), integers, epoch-second doubles.
     */
    static PreparedQuery insert(CopiedTable table, boolean withoutId) {
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

    static <T> List<Field<T>> inList(String name, Class<T> type) {
        return IntStream.range(0, IN_LIST).<Field<T>>mapToObj(i -> DSL.param(name + i, type)).toList();
    }

    static String[] names(String name) {
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
