package dev.hermes.state.core.model;

/**
 * How {@link dev.hermes.state.core.StateRepository#backupTo} writes a backup.
 *
 * @param incremental bring the earlier backup at the target up to date (it must be a backup of this
 *                    store, at its schema) instead of writing a new one
 * @param replace     a full backup may replace a file already at the target (refused otherwise, so that
 *                    a backup is never overwritten by mistake)
 * @param verifyFull  an incremental backup is verified as a full one is (both stores read whole, SQLite's
 *                    integrity checks), not only in the rows it changed; a full backup always is
 */
public record BackupOptions(boolean incremental, boolean replace, boolean verifyFull) {
    public BackupOptions(boolean incremental, boolean replace) {
        this(incremental, replace, false);
    }

    public BackupOptions {
        if (incremental && replace) {
            throw new dev.hermes.state.InvalidArgumentException("An incremental backup updates the backup at the target;"
                    + " replacing it is what a full backup does: choose one");
        }
    }

    /** A new full backup at a target where nothing is yet. */
    public static BackupOptions full() {
        return new BackupOptions(false, false);
    }

    /** The earlier backup at the target brought up to date. */
    public static BackupOptions incrementalUpdate() {
        return new BackupOptions(true, false);
    }
}
