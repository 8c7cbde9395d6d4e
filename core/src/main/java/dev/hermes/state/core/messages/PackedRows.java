package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.Backend;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;

/**
 * The rows of one value that {@link Backend#packedRows} built, read one after the other as {@link
 * StoredRow}s: each row's columns are located by {@link #next}, then decoded on demand, each exactly as
 * the driver would have read it from the row itself.
 */
final class PackedRows implements StoredRow {
    private static final byte NULL = 'N';
    private static final byte LENGTH_END = ':';
    private static final byte NUMBER_END = ',';

    private final byte[] packed;
    private final Backend.PackedKind[] kinds;
    /** Where each column's value starts in {@link #packed}, -1 for NULL; and where it ends (exclusive). */
    private final int[] starts;
    private final int[] ends;
    private int position;
    private boolean lastNull;

    /** The rows of {@code packed} (null: no rows), each of {@code kinds}' columns. */
    PackedRows(byte @Nullable [] packed, List<Backend.PackedKind> kinds) {
        this.packed = packed == null ? new byte[0] : packed;
        this.kinds = kinds.toArray(Backend.PackedKind[]::new);
        this.starts = new int[this.kinds.length];
        this.ends = new int[this.kinds.length];
    }

    /** Moves to the next row; false after the last. */
    boolean next() throws SQLException {
        if (position >= packed.length) {
            return false;
        }
        int at = position;
        for (int column = 0; column < kinds.length; column++) {
            if (at >= packed.length) {
                throw malformed(at);
            }
            if (packed[at] == NULL && kinds[column] != Backend.PackedKind.REAL) {
                starts[column] = -1;
                ends[column] = -1;
                at++;
                continue;
            }
            if (kinds[column] == Backend.PackedKind.TEXT) {
                int length = 0;
                int digits = 0;
                while (at < packed.length && packed[at] != LENGTH_END) {
                    int digit = packed[at] - '0';
                    if (digit < 0 || digit > 9 || ++digits > 10) {
                        throw malformed(at);
                    }
                    length = length * 10 + digit;
                    at++;
                }
                at++; // the ':'
                if (digits == 0 || length < 0 || at > packed.length || packed.length - at < length) {
                    throw malformed(at);
                }
                starts[column] = at;
                ends[column] = at + length;
                at += length;
            } else {
                starts[column] = at;
                while (at < packed.length && packed[at] != NUMBER_END) {
                    at++;
                }
                if (at >= packed.length) {
                    throw malformed(at);
                }
                ends[column] = at;
                at++; // the ','
            }
        }
        position = at;
        return true;
    }

    private SQLException malformed(int at) {
        return new SQLException("packed rows malformed at byte " + at + " of " + packed.length);
    }

    /** Index of a 1-based column of the current row, remembering whether it is NULL. */
    private int start(int column) {
        int start = starts[column - 1];
        lastNull = start < 0;
        return start;
    }

    @Override
    public @Nullable String text(int column) {
        int start = start(column);
        return start < 0 ? null : new String(packed, start, ends[column - 1] - start, StandardCharsets.UTF_8);
    }

    @Override
    public long integer(int column) throws SQLException {
        int start = start(column);
        if (start < 0) {
            return 0;
        }
        int end = ends[column - 1];
        boolean negative = packed[start] == '-';
        int at = negative ? start + 1 : start;
        if (at == end) {
            throw malformed(at);
        }
        long value = 0;
        for (; at < end; at++) {
            int digit = packed[at] - '0';
            if (digit < 0 || digit > 9) {
                throw malformed(at);
            }
            value = value * 10 - digit; // as a negative number, so that Long.MIN_VALUE fits
        }
        return negative ? value : -value;
    }

    @Override
    public double real(int column) throws SQLException {
        int start = start(column);
        lastNull = false; // the driver's getDouble does not tell either: a NULL packs as 0.0
        String text = new String(packed, start, ends[column - 1] - start, StandardCharsets.ISO_8859_1);
        switch (text) {
            case "Inf", "+Inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw malformed(start);
                }
            }
        }
    }

    @Override
    public boolean wasNull() {
        return lastNull;
    }
}
