package dev.hermes.state.core.copy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.backend.sqlite.SqliteBackup;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.BackupReport;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteFile;
import dev.hermes.state.sqlite.SqliteHeaders;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeMap;

/**
 * A backup of a live store on a SQLite file: consistent (one read snapshot, never a byte copy of a
 * file being written), verified before it gets its name, owner-only, and described by a manifest
 * beside it ({@code <backup>.manifest.json}: the source, its identity, the checksum, the counts).
 *
 * <p>A full backup is built in a temporary file beside the target (created 0600 before SQLite writes
 * to it), verified, flushed to disk and renamed: the target is either the earlier file or the new,
 * verified one, and a failure (a full disk, a damaged source) leaves nothing behind. An incremental
 * backup updates the earlier backup in one transaction, verified before its commit: it is either
 * brought up to date or left as it was.
 */
public final class StoreBackup {
    /** The manifest's format, so that a later version can tell what it reads. */
    static final String FORMAT = "hermes-state-backup/1";
    static final String MANIFEST_SUFFIX = ".manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StoreBackup() {
    }

    /** The manifest beside a backup file. */
    static Path manifestOf(Path backup) {
        return Path.of(backup.toAbsolutePath() + MANIFEST_SUFFIX);
    }

    /** Backs up {@code source} to {@code target} as {@code options} say (see the class comment). */
    public static BackupReport run(Database source, Path target, BackupOptions options, RetryPolicy policy) {
        Path sourceFile = source.file().orElseThrow(() -> new InvalidArgumentException("A backup is a copy of a store on a"
                + " SQLite file; " + source.describe() + " is on PostgreSQL: copy it into a SQLite file with 'hermes-state"
                + " copy --from <url> --to FILE' (verified by counts and checksums), or back it up with pg_dump"));
        Path absolute = target.toAbsolutePath().normalize();
        checkTarget(sourceFile.toAbsolutePath(), absolute, options);
        return options.incremental() ? incremental(sourceFile.toAbsolutePath(), absolute, options.verifyFull(), policy)
                : full(sourceFile.toAbsolutePath(), absolute, options.replace(), policy);
    }

    private static void checkTarget(Path source, Path target, BackupOptions options) {
        if (target.equals(source) || SqliteFile.isPartOf(target, source) || SqliteFile.isPartOf(source, target)) {
            throw new InvalidArgumentException("The backup's target " + target + " is the store itself (or one of its"
                    + " files): back it up to another file");
        }
        Path folder = target.getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new StateIOException("Cannot back up to " + target + ": the folder " + folder + " does not exist");
        }
        if (Files.isDirectory(target)) {
            throw new StateIOException("Cannot back up to " + target + ": it is a folder; name the backup file in it");
        }
        if (!writable(folder)) {
            throw new StateIOException("Cannot back up to " + target + ": the folder " + folder + " is read-only");
        }
        boolean exists = Files.exists(target);
        if (options.incremental() && !exists) {
            throw new InvalidArgumentException("No backup at " + target + " to bring up to date: take a full backup first"
                    + " (without --incremental)");
        }
        if (!options.incremental() && exists && !options.replace()) {
            throw new InvalidArgumentException(target + " already exists: bring that backup up to date with --incremental,"
                    + " or replace it with --force");
        }
    }

    /** A folder whose mode lets nobody write is read-only, also for root (who could write it anyway): the owner said so. */
    private static boolean writable(Path folder) {
        try {
            return Files.isWritable(folder) && Files.getPosixFilePermissions(folder).stream()
                    .anyMatch(permission -> permission.name().endsWith("_WRITE"));
        } catch (UnsupportedOperationException | IOException notPosix) {
            return Files.isWritable(folder);
        }
    }

    // ------------------------------------------------------------------ full

    private static BackupReport full(Path source, Path target, boolean replace, RetryPolicy policy) {
        Path built = SqliteFile.createTemporarySibling(target);
        boolean published = false;
        try {
            long start = System.nanoTime();
            SqliteBackup.Snapshot snapshot = SqliteBackup.copy(source, built, policy);
            long copied = System.nanoTime();
            SqliteBackup.Verdict verdict = SqliteBackup.verify(built, policy);
            SqliteBackup.check(snapshot, verdict);
            force(built);
            long verified = System.nanoTime();
            if (replace) {
                move(built, target);
            } else if (!SqliteFile.publish(built, target)) {
                throw new InvalidArgumentException(target + " was created by someone else while the backup ran; it was"
                        + " left as it is");
            }
            published = true;
            forceFolder(target);
            Path manifest = writeManifest(target, source, snapshot, null);
            return new BackupReport(target, manifest, snapshot.rows(), snapshot.checksum(), size(target),
                    verdict.fullText(), null, Duration.ofNanos(copied - start), Duration.ofNanos(verified - copied));
        } catch (SQLException failure) {
            throw SqliteErrors.FAILURES.translate(SqliteHeaders.refusal(source, failure), "backing up " + source + " to " + target);
        } finally {
            if (!published) {
                SqliteFile.deleteWithCompanions(built);
            }
        }
    }

    // ------------------------------------------------------------------ incremental

    private static BackupReport incremental(Path source, Path target, boolean verifyFull, RetryPolicy policy) {
        JsonNode earlier = readManifest(target);
        String identity = identity(source);
        if (!identity.equals(earlier.path("sourceIdentity").asText())) {
            throw new InvalidArgumentException("The backup at " + target + " is a backup of "
                    + earlier.path("source").asText("another store") + ", not of " + source
                    + ": bring it up to date from that store, or take a full backup of this one to another file");
        }
        try {
            long start = System.nanoTime();
            SqliteBackup.Changes changes = SqliteBackup.update(target, source, policy, sums(earlier, target), verifyFull);
            force(target);
            long done = System.nanoTime();
            SqliteBackup.Snapshot snapshot = changes.source();
            Path manifest = writeManifest(target, source, snapshot, earlier);
            BackupReport.Changes changed = new BackupReport.Changes(changes.sessionsAdded(), changes.sessionsUpdated(),
                    changes.sessionsRemoved(), changes.messagesAdded(), changes.messagesUpdated(),
                    changes.messagesRemoved(), changes.fullComparison(), changes.rowsExamined());
            Duration verifying = Duration.ofNanos(changes.verifyNanos());
            return new BackupReport(target, manifest, snapshot.rows(), snapshot.checksum(), size(target),
                    changes.backup().fullText(), changed, Duration.ofNanos(done - start).minus(verifying), verifying);
        } catch (SQLException failure) {
            throw SqliteErrors.FAILURES.translate(failure, "bringing the backup " + target + " up to date with " + source);
        }
    }

    // ------------------------------------------------------------------ the manifest

    /**
     * What names the source store across backups: its file's real path. A store moved elsewhere is
     * another source as far as incremental backups go (a full backup starts afresh).
     */
    private static String identity(Path source) {
        try {
            return "sqlite:" + source.toRealPath();
        } catch (IOException e) {
            throw new StateIOException("Cannot resolve " + source + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode readManifest(Path backup) {
        Path manifest = manifestOf(backup);
        if (!Files.exists(manifest)) {
            throw new InvalidArgumentException("The backup at " + backup + " has no manifest (" + manifest.getFileName()
                    + "): it was not made by 'hermes-state backup'. Take a full backup (without --incremental)");
        }
        try {
            JsonNode node = JSON.readTree(manifest.toFile());
            if (node == null || !FORMAT.equals(node.path("format").asText())) {
                throw new InvalidArgumentException(manifest + " is not a hermes-state backup manifest (" + FORMAT + ")");
            }
            return node;
        } catch (IOException unreadable) {
            throw new InvalidArgumentException(manifest + " is not a hermes-state backup manifest: " + unreadable.getMessage());
        }
    }

    /**
     * The tables' sums the earlier backup was verified with, which an incremental run brings up to date;
     * null for a manifest without them, or one written for another state of the file (the backup was
     * written to since, or the manifest's write after an update's commit did not happen): then the
     * incremental run verifies in full.
     */
    private static java.util.@org.jspecify.annotations.Nullable Map<String, SqliteBackup.Sum> sums(JsonNode manifest,
                                                                                                   Path backup) {
        JsonNode sums = manifest.path("sums");
        JsonNode rows = manifest.path("rows");
        long counter = changeCounter(backup);
        if (!sums.isObject() || !rows.isObject() || counter < 0 || manifest.path("fileChangeCounter").asLong(-1) != counter) {
            return null;
        }
        java.util.Map<String, SqliteBackup.Sum> known = new TreeMap<>();
        try {
            sums.properties().forEach(table -> known.put(table.getKey(),
                    SqliteBackup.Sum.of(rows.path(table.getKey()).asLong(-1), table.getValue().asText())));
        } catch (NumberFormatException unreadable) {
            return null;
        }
        return known;
    }

    private static Path writeManifest(Path backup, Path source, SqliteBackup.Snapshot snapshot,
                                      @org.jspecify.annotations.Nullable JsonNode earlier) {
        Path manifest = manifestOf(backup);
        ObjectNode node = JSON.createObjectNode();
        String now = Instant.now().toString();
        node.put("format", FORMAT);
        node.put("source", source.toString());
        node.put("sourceIdentity", identity(source));
        node.put("checksum", snapshot.checksum());
        node.put("checksumOf", "SHA-256 over every table (name order) of its name, columns, rows and sum: the sum modulo"
                + " 2^256 of one SHA-256 per row (hermes-state's logical checksum)");
        ObjectNode rows = node.putObject("rows");
        new TreeMap<>(snapshot.rows()).forEach(rows::put);
        ObjectNode sums = node.putObject("sums");
        new TreeMap<>(snapshot.tableChecksums()).forEach(sums::put);
        node.put("bytes", size(backup));
        node.put("fileChangeCounter", changeCounter(backup));
        node.put("createdAt", earlier == null ? now : earlier.path("createdAt").asText(now));
        node.put("updatedAt", now);
        node.put("incrementalUpdates", earlier == null ? 0 : earlier.path("incrementalUpdates").asLong() + 1);
        Path written = null;
        try {
            written = Files.createTempFile(backup.getParent(), "." + backup.getFileName() + ".", ".manifest-new",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            JSON.writeValue(written.toFile(), node);
            force(written);
            move(written, manifest);
            written = null;
            return manifest;
        } catch (IOException e) {
            throw new StateIOException("Cannot write the backup's manifest " + manifest + ": " + e.getMessage(), e);
        } finally {
            if (written != null) {
                try {
                    Files.deleteIfExists(written);
                } catch (IOException ignored) {
                    // a leftover temporary file is clearly named
                }
            }
        }
    }

    // ------------------------------------------------------------------ files

    /** SQLite's online backup syncs its commit, but the journal-mode change after it does not have to be: flush. */
    private static void force(Path file) {
        try {
            SqliteFile.sync(file);
        } catch (java.io.UncheckedIOException e) {
            throw new StateIOException(String.valueOf(e.getMessage()), e.getCause());
        }
    }

    /** The rename itself reaches the disk with the folder's entry. */
    private static void forceFolder(Path file) {
        Path folder = file.toAbsolutePath().getParent();
        if (folder == null) {
            return;
        }
        try {
            SqliteFile.sync(folder);
        } catch (java.io.UncheckedIOException | UnsupportedOperationException notOnThisSystem) {
            // some systems cannot open a folder for syncing; the rename is still atomic
        }
    }

    private static void move(Path from, Path to) {
        try {
            try {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException notAtomic) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot rename " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }

    /**
     * SQLite's file change counter, which every commit to a file in rollback-journal mode (a backup's)
     * increments: the manifest's sums describe the file only at the counter recorded with them (-1, never
     * matching, when it cannot be read here).
     */
    private static long changeCounter(Path file) {
        return SqliteHeaders.changeCounter(file).orElse(-1L);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new StateIOException("Cannot read the size of " + file + ": " + e.getMessage(), e);
        }
    }
}
