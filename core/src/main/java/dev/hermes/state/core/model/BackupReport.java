package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link dev.hermes.state.core.StateRepository#backupTo} wrote and verified.
 *
 * @param file       the backup (a SQLite file, owner-only)
 * @param manifest   the JSON beside it that records the source, the checksum and the counts
 * @param rows       rows per table of the backup, equal to the source's snapshot
 * @param checksum   the logical checksum (SHA-256 over every table's count and sum of row hashes), equal to the source's
 * @param bytes      the backup file's size
 * @param fullText   each full-text index's own integrity check: "ok" or SQLite's message (reported, not
 *                   a failure: a page copy has the source's index as it is)
 * @param changes    for an incremental backup, what it changed; null for a full one
 * @param copying    time spent copying (or bringing up to date)
 * @param verifying  time spent verifying
 */
public record BackupReport(Path file, Path manifest, Map<String, Long> rows, String checksum, long bytes,
                           Map<String, String> fullText, @Nullable Changes changes, Duration copying, Duration verifying) {
    /**
     * What the full-text checks say when the incremental run verified only what it changed: SQLite's
     * integrity checks read the whole file ({@code --verify full} runs them).
     */
    public static final String NOT_CHECKED = "not checked (--verify full)";

    public BackupReport {
        rows = java.util.Collections.unmodifiableMap(new TreeMap<>(rows));
        fullText = java.util.Collections.unmodifiableMap(new TreeMap<>(fullText));
        if (checksum.isEmpty() || bytes < 0) {
            throw new InvalidArgumentException("A backup report needs a checksum and a size");
        }
    }

    /** True when SQLite's integrity checks ran and both stores were read whole (a full backup, or --verify full). */
    public boolean verifiedFully() {
        return !fullText.containsValue(NOT_CHECKED);
    }

    /** True for an incremental backup. */
    public boolean incremental() {
        return changes != null;
    }

    /**
     * What an incremental backup changed in the earlier backup.
     *
     * @param fullComparison true when every message had to be compared (a change in place that left
     *                       its session row as it was, found by comparing every message's active and
     *                       compacted flags); false when only new and changed sessions had changed messages
     * @param rowsExamined   rows read into the checksums by the verification: the changed messages (and their
     *                       full-text rows) on both sides, before and after, and the other tables but messages whole;
     *                       every row of both stores besides with --verify full
     */
    public record Changes(long sessionsAdded, long sessionsUpdated, long sessionsRemoved, long messagesAdded,
                          long messagesUpdated, long messagesRemoved, boolean fullComparison, long rowsExamined) {
    }
}
