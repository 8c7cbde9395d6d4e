package dev.hermes.state.core.copy;

import org.jspecify.annotations.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;


/**
 * The content digest of one session: SHA-256 over every column of its row, then, in (timestamp, id)
 * order, every column of each of its messages except the message's own id (a renumbered message
 * reads the same). Each value is written as a tag (null, text, integer, real) and its bytes: text
 * as its UTF-8 length and bytes, numbers as 8 big-endian bytes (reals as their IEEE bits), so no two
 * different rows write the same bytes. Both sides of a copy compute it the same way.
 */
final class SessionDigest {
    private static final int MESSAGE_ID = RowReader.MESSAGE_ID;
    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(256);

    private final RowQueries tables;
    private final MessageDigest sha256;
    private final byte[] eight = new byte[8];
    private long messages;

    SessionDigest(RowQueries tables, @Nullable Object[] session) {
        this.tables = tables;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
        write(tables.sessions, session, -1);
    }

    void addMessage(@Nullable Object[] message) {
        messages++;
        write(tables.messages, message, MESSAGE_ID);
    }

    long messages() {
        return messages;
    }

    /** The digest as a non-negative number below 2^256, to be summed with others'. */
    BigInteger value() {
        return new BigInteger(1, sha256.digest());
    }

    /** {@code a + b} modulo 2^256: the sum of digests that does not depend on the order sessions are read in. */
    static BigInteger add(BigInteger a, BigInteger b) {
        return a.add(b).mod(MODULUS);
    }

    /** 64 hex digits. */
    static String hex(BigInteger sum) {
        String digits = sum.toString(16);
        return "0".repeat(64 - digits.length()) + digits;
    }

    private void write(CopiedTable table, @Nullable Object[] row, int skipped) {
        for (int i = 0; i < row.length; i++) {
            if (i == skipped) {
                continue;
            }
            Object value = row[i];
            if (value == null) {
                sha256.update((byte) 0);
            } else if (table.kind(i) == CopiedTable.Kind.TEXT) {
                byte[] bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
                sha256.update((byte) 1);
                writeLong(bytes.length);
                sha256.update(bytes);
            } else if (table.kind(i) == CopiedTable.Kind.INTEGER) {
                sha256.update((byte) 2);
                writeLong((Long) value);
            } else {
                sha256.update((byte) 3);
                writeLong(Double.doubleToLongBits((Double) value));
            }
        }
    }

    private void writeLong(long value) {
        for (int i = 7; i >= 0; i--) {
            eight[i] = (byte) value;
            value >>>= 8;
        }
        sha256.update(eight);
    }
}
