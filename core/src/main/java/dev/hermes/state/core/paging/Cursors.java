package dev.hermes.state.core.paging;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Keyset-pagination cursors: the (timestamp, id) of the last row of a page, as an opaque URL-safe
 * string. The timestamp travels as the exact bits of the stored double, so the next page starts
 * exactly after that row in any process.
 */
public final class Cursors {
    private static final String SESSIONS_KIND = "s1";
    private static final String MESSAGES_KIND = "m1";
    /** A position in a session's messages by id alone (the rules of schema 17 order them so). */
    private static final String MESSAGE_IDS_KIND = "m2";
    private static final String ACTIVITY_KIND = "a1";

    private Cursors() {
    }

    /** A position in the session listing: started_at descending, then id descending. */
    public record Position(double timestamp, String id) {
    }

    /** A position in a session's messages: timestamp ascending, then id ascending. */
    public record MessagePosition(double timestamp, long id) {
    }

    /**
     * A position in the session listing by last activity: the chain's newest activity, then
     * started_at, then id, all descending.
     */
    public record ActivityPosition(double activity, double startedAt, String id) {
    }

    public static String sessionsByActivity(double activity, double startedAt, String id) {
        return encode(ACTIVITY_KIND + ":" + Long.toHexString(Double.doubleToLongBits(activity)) + ":"
                + Long.toHexString(Double.doubleToLongBits(startedAt)) + ":" + id);
    }

    /** The position of a cursor of the listing by last activity; null for a null cursor (the first page). */
    public static @Nullable ActivityPosition activityPosition(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        String[] parts = decode(cursor, ACTIVITY_KIND);
        String[] rest = parts[2].split(":", 2);
        if (rest.length != 2 || rest[1].isEmpty()) {
            throw invalid(cursor);
        }
        return new ActivityPosition(timestamp(parts[1], cursor), timestamp(rest[0], cursor), rest[1]);
    }

    public static String sessions(double startedAt, String id) {
        return encode(SESSIONS_KIND + ":" + Long.toHexString(Double.doubleToLongBits(startedAt)) + ":" + id);
    }

    public static String messages(double timestamp, long id) {
        return encode(MESSAGES_KIND + ":" + Long.toHexString(Double.doubleToLongBits(timestamp)) + ":" + id);
    }

    public static String messagesById(long id) {
        return encode(MESSAGE_IDS_KIND + ":" + id + ":" + id);
    }

    /** The message id after which a by-id messages cursor's page starts. */
    public static long messageIdPosition(String cursor) {
        String[] parts = decode(cursor, MESSAGE_IDS_KIND);
        try {
            long id = Long.parseLong(parts[1]);
            if (id != Long.parseLong(parts[2])) {
                throw invalid(cursor);
            }
            return id;
        } catch (NumberFormatException e) {
            throw invalid(cursor);
        }
    }

    /** The position of a sessions cursor; null for a null cursor (the first page). */
    public static @Nullable Position sessionsPosition(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        String[] parts = decode(cursor, SESSIONS_KIND);
        return new Position(timestamp(parts[1], cursor), parts[2]);
    }

    /** The position of a messages cursor; null for a null cursor (the first page). */
    public static @Nullable MessagePosition messagesPosition(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        String[] parts = decode(cursor, MESSAGES_KIND);
        try {
            return new MessagePosition(timestamp(parts[1], cursor), Long.parseLong(parts[2]));
        } catch (NumberFormatException e) {
            throw invalid(cursor);
        }
    }

    private static String encode(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decode(String cursor, String kind) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid(cursor);
        }
        String[] parts = text.split(":", 3);
        if (parts.length != 3 || !parts[0].equals(kind) || parts[2].isEmpty()) {
            throw invalid(cursor);
        }
        return parts;
    }

    private static double timestamp(String hexBits, String cursor) {
        try {
            return Double.longBitsToDouble(Long.parseUnsignedLong(hexBits, 16));
        } catch (NumberFormatException e) {
            throw invalid(cursor);
        }
    }

    private static InvalidArgumentException invalid(String cursor) {
        return new InvalidArgumentException("Invalid page cursor '" + cursor + "': pass the cursor of a previous page of the same listing");
    }
}
