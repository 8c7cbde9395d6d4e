package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * What {@code hermes-state recover} salvaged from a damaged file into a new store, or with {@code
 * inspectOnly} would salvage.
 *
 * @param source          the damaged file (never written)
 * @param target          the new store's file
 * @param inspectOnly     nothing was written
 * @param targetVersion   the schema version of the new store
 * @param sessions        the sessions table's account
 * @param messages        the messages table's account
 * @param placeholder     the session created to hold messages whose session was lost (null when none was needed)
 * @param orphanMessages  messages put under the placeholder
 * @param parentsDropped  sessions whose parent was lost or that closed a cycle of parents: their parent link is null now
 * @param sessionsShort   sessions that had fewer of their messages recovered than their counter says, by how many
 * @param check           the doctor's check of the new store (null with inspectOnly)
 * @param otherTables     every other table of the store that both files have (state_meta, compression_locks,
 *                        the conversation windows, ...), in the source's schema order
 */
public record RecoveryReport(String source, String target, boolean inspectOnly, int targetVersion, TableAccount sessions,
                             TableAccount messages, @Nullable String placeholder, long orphanMessages,
                             List<String> parentsDropped, List<SessionShortfall> sessionsShort,
                             @Nullable DoctorReport check, List<TableSalvage> otherTables) {
    public RecoveryReport {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(messages, "messages");
        parentsDropped = List.copyOf(parentsDropped);
        sessionsShort = List.copyOf(sessionsShort);
        otherTables = List.copyOf(otherTables);
    }

    /** A convenience for the reports made before the other tables were salvaged: none of them. */
    public RecoveryReport(String source, String target, boolean inspectOnly, int targetVersion, TableAccount sessions,
                          TableAccount messages, @Nullable String placeholder, long orphanMessages,
                          List<String> parentsDropped, List<SessionShortfall> sessionsShort, @Nullable DoctorReport check) {
        this(source, target, inspectOnly, targetVersion, sessions, messages, placeholder, orphanMessages, parentsDropped,
                sessionsShort, check, List.of());
    }

    /** Whether any table lost rows to damage (rows dropped for a lost reference are not counted here). */
    public boolean anyUnreadable() {
        return !sessions.lostRanges().isEmpty() || !messages.lostRanges().isEmpty()
                || otherTables.stream().anyMatch(t -> !t.lostRanges().isEmpty() || t.stoppedAtDamage());
    }

    /**
     * One table's account.
     *
     * @param recovered   rows read and (unless inspecting) written
     * @param expected    rows the source says it had: for messages the sum of the sessions' counters read
     *                    (plus the compacted rows, which counters leave out), for sessions the highest rowid
     * @param highestId   the highest id the source ever handed out (messages: AUTOINCREMENT's counter; sessions: the
     *                    highest rowid read), 0 when unknown
     * @param lostRanges  rowid ranges that could not be read, inclusive, in order
     */
    public record TableAccount(long recovered, long expected, long highestId, List<RowidRange> lostRanges) {
        public TableAccount {
            lostRanges = List.copyOf(lostRanges);
        }
    }

    /** An inclusive range of rowids that could not be read. */
    public record RowidRange(long first, long last) {
        public RowidRange {
            if (last < first) {
                throw new IllegalArgumentException("empty range " + first + ".." + last);
            }
        }
    }

    /** A session whose counter says it had {@code counted} messages of which {@code recovered} were. */
    public record SessionShortfall(String sessionId, long counted, long recovered) {
    }

    /**
     * One of the other tables' account.
     *
     * @param table           its name
     * @param read            rows read from the source
     * @param dropped         rows read but left out because the session or message they refer to was not recovered
     *                        (a window, its message list, a compression lock)
     * @param lostRanges      rowid ranges that could not be read (tables with rowids), inclusive, in order
     * @param stoppedAtDamage a table without rowid met damage: its rows are read in primary-key order up to the
     *                        damage, and the rest of the table (how many rows is unknown) is lost
     */
    public record TableSalvage(String table, long read, long dropped, List<RowidRange> lostRanges,
                               boolean stoppedAtDamage) {
        public TableSalvage {
            Objects.requireNonNull(table, "table");
            lostRanges = List.copyOf(lostRanges);
            if (dropped < 0 || dropped > read) {
                throw new IllegalArgumentException("dropped " + dropped + " of " + read + " rows read");
            }
        }

        /** Rows written (or, inspecting, that would be). */
        public long recovered() {
            return read - dropped;
        }
    }
}
