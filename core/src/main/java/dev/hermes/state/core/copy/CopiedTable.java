package dev.hermes.state.core.copy;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.model.UnstorableValueException;
import dev.hermes.state.core.rows.StoredContent;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Table;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The columns a copy carries of one table (every column of the generated table that both stores have,
 * in the table's order: a version-6 store and a version-17 one share the version-6 columns) and how a
 * row of them is read: exactly as stored, each value checked to be one the target can hold
 * unchanged. Text is read as its bytes and checked to be UTF-8 (a driver would quietly replace invalid
 * bytes); numbers as the driver returns them, so a SQLite column holding something else is noticed.
 * A row is an {@code Object[]} of String, Long, Double or null, in the columns' order. Structured
 * message content is carried under the target's marker ({@link StoredContent#forEngine}), so that a copy
 * between SQLite and PostgreSQL keeps it structured.
 */
final class CopiedTable {
    /** What a column holds, as stored: SQLite's TEXT, INTEGER and REAL; PostgreSQL's text, bigint, double precision. */
    enum Kind { TEXT, INTEGER, REAL }

    private final Table<?> table;
    private final List<Field<?>> fields;
    private final Kind[] kinds;
    private final boolean messages;
    /** Where messages.content is (-1 for sessions). */
    private final int contentColumn;

    private CopiedTable(Table<?> table, List<Field<?>> fields, boolean messages) {
        this.table = table;
        this.fields = List.copyOf(fields);
        this.kinds = this.fields.stream().map(CopiedTable::kind).toArray(Kind[]::new);
        this.messages = messages;
        this.contentColumn = messages ? this.fields.indexOf(MESSAGES.CONTENT) : -1;
    }

    /** The sessions columns both stores have. */
    static CopiedTable sessions(StoreSchema source, StoreSchema target) {
        return new CopiedTable(SESSIONS, common(SESSIONS, source, target), false);
    }

    /** The messages columns both stores have. */
    static CopiedTable messages(StoreSchema source, StoreSchema target) {
        return new CopiedTable(MESSAGES, common(MESSAGES, source, target), true);
    }

    private static List<Field<?>> common(Table<?> table, StoreSchema source, StoreSchema target) {
        List<Field<?>> targets = target.fields(table);
        List<Field<?>> common = source.fields(table).stream().filter(targets::contains).toList();
        for (Field<?> key : table == SESSIONS ? List.of(SESSIONS.ID, SESSIONS.PARENT_SESSION_ID, SESSIONS.TITLE)
                : List.<Field<?>>of(MESSAGES.ID, MESSAGES.TIMESTAMP)) {
            if (common.indexOf(key) != placeOf(key)) {
                throw new IllegalStateException(key + " is not at its place " + placeOf(key) + " in " + common);
            }
        }
        return common;
    }

    /** The place of a column of versions 1 to 4 in any copy's rows: its place in the generated table. */
    static int placeOf(Field<?> key) {
        return List.of(SESSIONS.fields()).contains(key) ? List.of(SESSIONS.fields()).indexOf(key)
                : List.of(MESSAGES.fields()).indexOf(key);
    }

    private static Kind kind(Field<?> field) {
        Class<?> stored = field.getDataType().getFromType();
        if (stored == String.class || stored == JSON.class) {
            return Kind.TEXT;
        }
        if (stored == Long.class) {
            return Kind.INTEGER;
        }
        if (stored == Double.class) {
            return Kind.REAL;
        }
        throw new IllegalStateException("No copy rule for " + field + " stored as " + stored);
    }

    Table<?> table() {
        return table;
    }

    List<Field<?>> fields() {
        return fields;
    }

    Kind kind(int column) {
        return kinds[column];
    }

    int width() {
        return fields.size();
    }

    int indexOf(Field<?> field) {
        int index = fields.indexOf(field);
        if (index < 0) {
            throw new IllegalArgumentException(field + " is not a column of " + table);
        }
        return index;
    }

    /**
     * Reads the current row of {@code rows}, whose first {@link #width()} columns are this table's in
     * order. {@code nulAllowed} false: text holding U+0000 is refused too. {@code forTarget}: structured
     * content is given the marker of a target that does ({@code nulAllowed}) or does not hold NUL.
     *
     * @throws UnstorableValueException a value that would not arrive unchanged
     */
    @Nullable Object[] read(ResultSet rows, boolean nulAllowed, boolean forTarget, String target) throws SQLException {
        @Nullable Object[] raw = new Object[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            raw[i] = kinds[i] == Kind.TEXT ? rows.getBytes(i + 1) : rows.getObject(i + 1);
        }
        @Nullable Object[] row = new Object[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            Object value = raw[i];
            row[i] = value == null ? null : switch (kinds[i]) {
                case TEXT -> text(value, nulAllowed, forTarget, target, raw, i);
                case INTEGER -> integer(value, raw, i);
                case REAL -> real(value, raw, i);
            };
        }
        return row;
    }

    private String text(Object value, boolean nulAllowed, boolean forTarget, String target, @Nullable Object[] raw,
                        int column) {
        byte[] bytes = value instanceof byte[] b ? b : String.valueOf(value).getBytes(StandardCharsets.UTF_8);
        int malformed = firstMalformed(bytes);
        if (malformed >= 0) {
            throw unstorable(raw, column, "is not valid UTF-8 (byte 0x" + String.format("%02X", bytes[malformed] & 0xff)
                    + " at byte " + malformed + " of " + bytes.length + "); copying it would change it");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (forTarget && column == contentColumn) {
            text = StoredContent.forEngine(text, nulAllowed);
        }
        int nul = text.indexOf('\0');
        if (nul >= 0 && !nulAllowed) {
            throw unstorable(raw, column, "holds a NUL character (U+0000) at character " + text.codePointCount(0, nul)
                    + ", which " + target + " cannot store in text");
        }
        return text;
    }

    private Long integer(Object value, @Nullable Object[] raw, int column) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            return ((Number) value).longValue();
        }
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
            return d.longValue();
        }
        throw unstorable(raw, column, "holds " + describe(value) + ", not an integer");
    }

    private Double real(Object value, @Nullable Object[] raw, int column) {
        if (value instanceof Double d) {
            return d;
        }
        if ((value instanceof Long || value instanceof Integer || value instanceof Short)
                && Math.abs(((Number) value).longValue()) <= 1L << 53) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        throw unstorable(raw, column, "holds " + describe(value) + ", not a floating-point number");
    }

    private UnstorableValueException unstorable(@Nullable Object[] raw, int column, String problem) {
        int sessionColumn = messages ? indexOf(MESSAGES.SESSION_ID) : indexOf(SESSIONS.ID);
        String session = printable(raw[sessionColumn]);
        Long message = messages && raw[indexOf(MESSAGES.ID)] instanceof Number id ? id.longValue() : null;
        return new UnstorableValueException(session, message, fields.get(column).getName(), problem);
    }

    private static String describe(Object value) {
        if (value instanceof byte[] bytes) {
            return "a blob of " + bytes.length + " bytes";
        }
        String text = String.valueOf(value);
        return (value instanceof String ? "the text '" : "the value ") + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                + (value instanceof String ? "'" : "");
    }

    /** The text of a value read as bytes, invalid UTF-8 shown as \xNN escapes (for naming a session). */
    static String printable(@Nullable Object value) {
        if (!(value instanceof byte[] bytes)) {
            return String.valueOf(value);
        }
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < bytes.length) {
            int length = sequenceLength(bytes, i);
            if (length > 0) {
                text.append(new String(bytes, i, length, StandardCharsets.UTF_8));
                i += length;
            } else {
                text.append(String.format("\\x%02X", bytes[i] & 0xff));
                i++;
            }
        }
        return text.toString();
    }

    /** The offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
    private static int firstMalformed(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            if (bytes[i] >= 0) {
                i++;
                continue;
            }
            int length = sequenceLength(bytes, i);
            if (length == 0) {
                return i;
            }
            i += length;
        }
        return -1;
    }

    /** The length of the well-formed UTF-8 sequence at {@code i}, or 0 (Unicode's table 3-7). */
    private static int sequenceLength(byte[] bytes, int i) {
        int b0 = bytes[i] & 0xff;
        if (b0 < 0x80) {
            return 1;
        }
        int length = b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3 : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : 0;
        if (length == 0 || i + length > bytes.length) {
            return 0;
        }
        int b1 = bytes[i + 1] & 0xff;
        int low = b0 == 0xE0 ? 0xA0 : b0 == 0xF0 ? 0x90 : 0x80;
        int high = b0 == 0xED ? 0x9F : b0 == 0xF4 ? 0x8F : 0xBF;
        if (b1 < low || b1 > high) {
            return 0;
        }
        for (int k = 2; k < length; k++) {
            int b = bytes[i + k] & 0xff;
            if (b < 0x80 || b > 0xBF) {
                return 0;
            }
        }
        return length;
    }
}
