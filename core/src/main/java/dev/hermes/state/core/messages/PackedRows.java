package dev.hermes.state.core.messages;

import dev.hermes.state.core.rows.StoredContent;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The conversation query's rows packed into one value by the engine ({@link
 * dev.hermes.state.core.backend.Backend#packedRows}, whose format this reads): a session costs one native
 * call of the driver instead of one per row and column (measured: the cost that remained of a
 * conversation read on SQLite). Read back, the values are those of the row-by-row read: the same bytes
 * decoded from UTF-8 as {@link MessageRows#text} decodes them (a number or BLOB in a text column is its
 * text, as the driver's getBytes gives it), the same double (the timestamp is scaled by
 * {@link #TIMESTAMP_SCALE}, exact for every double of the years it covers). A value the packing could
 * not carry exactly ({@code "x"}) makes the whole value {@link NotPacked}: the caller reads that session
 * row by row. The rows come back in id order.
 */
final class PackedRows {
    /** The columns of a packed row that are text (then the observed flag and the timestamp). */
    private static final int TEXT_COLUMNS = 12;
    /** 2<sup>22</sup>: the scale of a packed timestamp. */
    static final double TIMESTAMP_SCALE = 4194304.0;
    /**
     * 2<sup>37</sup> seconds (the year 6325): a packed timestamp is below it, so that it scales to at most
     * 18 digits; at and above 2<sup>30</sup> (2004) a double's step is 2<sup>-22</sup> or more, so every
     * timestamp of those years scales exactly.
     */
    static final double TIMESTAMP_LIMIT = 137438953472.0;

    /** The packed value is not one this reader can give back exactly: read the rows one by one. */
    static final class NotPacked extends Exception {
        private static final long serialVersionUID = 1L;

        NotPacked(String why) {
            super(why, null, false, false);
        }
    }

    private final byte[] packed;
    private int at;

    private PackedRows(byte[] packed) {
        this.packed = packed;
    }

    /** The rows of the packed value, in id order. */
    static List<ConversationReplay.Row> rows(byte[] packed) throws NotPacked {
        return new PackedRows(packed).rows();
    }

    private List<ConversationReplay.Row> rows() throws NotPacked {
        List<ConversationReplay.Row> rows = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        @Nullable String[] texts = new String[TEXT_COLUMNS];
        boolean ordered = true;
        long lastId = Long.MIN_VALUE;
        while (at < packed.length) {
            long id = number(',');
            ordered &= id > lastId;
            lastId = id;
            for (int column = 0; column < TEXT_COLUMNS; column++) {
                texts[column] = text();
            }
            if (peek() == 'x') {
                throw new NotPacked("observed is neither an integer nor NULL");
            }
            boolean observed = number(';') != 0;
            byte kind = next();
            double timestamp = switch (kind) {
                case 'r' -> number(';') / TIMESTAMP_SCALE;
                case 'i' -> (double) number(';');
                default -> throw new NotPacked("a timestamp the packing does not carry exactly");
            };
            rows.add(row(texts, observed, timestamp));
            ids.add(id);
        }
        return ordered ? rows : byId(rows, ids);
    }

    /** The rows in the order of their ids (unique: the table's key). */
    private static List<ConversationReplay.Row> byId(List<ConversationReplay.Row> rows, List<Long> ids) {
        Integer[] order = new Integer[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing(ids::get));
        List<ConversationReplay.Row> sorted = new ArrayList<>(order.length);
        for (Integer i : order) {
            sorted.add(rows.get(i));
        }
        return sorted;
    }

    @SuppressWarnings("NullAway") // role is NOT NULL in the schema (as in ConversationReplay.row)
    private static ConversationReplay.Row row(@Nullable String[] texts, boolean observed, double timestamp) {
        return new ConversationReplay.Row(texts[0], StoredContent.decode(texts[1]), texts[2], texts[3], texts[4],
                texts[5], texts[6], texts[7], texts[8], texts[9], texts[10], texts[11], observed, timestamp);
    }

    /** A text column: {@code :} for NULL, else its byte length, {@code :} and its bytes, decoded from UTF-8. */
    private @Nullable String text() throws NotPacked {
        if (peek() == ':') {
            at++;
            return null;
        }
        long length = number(':');
        if (length > packed.length - at) {
            throw new NotPacked("a text longer than the value");
        }
        String text = new String(packed, at, (int) length, StandardCharsets.UTF_8);
        at += (int) length;
        return text;
    }

    /** A decimal integer ended by {@code end}. */
    private long number(char end) throws NotPacked {
        boolean negative = peek() == '-';
        if (negative) {
            at++;
        }
        long value = 0;
        int digits = 0;
        while (true) {
            byte b = next();
            if (b == end && digits > 0) {
                return negative ? -value : value;
            }
            if (b < '0' || b > '9' || ++digits > 18) {
                throw new NotPacked("not a number ended by " + end + " at " + (at - 1));
            }
            value = value * 10 + (b - '0');
        }
    }

    private byte peek() throws NotPacked {
        if (at >= packed.length) {
            throw new NotPacked("truncated");
        }
        return packed[at];
    }

    private byte next() throws NotPacked {
        if (at >= packed.length) {
            throw new NotPacked("truncated");
        }
        return packed[at++];
    }
}
