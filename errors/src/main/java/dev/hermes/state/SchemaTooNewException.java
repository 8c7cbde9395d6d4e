package dev.hermes.state;

/**
 * The file was written by a newer Hermes than this library knows, or is past the older version the
 * store was asked to keep it at. It is never migrated or written; opening it read-only still works as
 * long as the version-6 columns exist.
 */
public final class SchemaTooNewException extends HermesStateException {
    private final int fileVersion;
    private final boolean newestKnown;
    private final int supportedVersion;

    /** The file is newer than {@code supportedVersion}, the newest version this library knows. */
    public SchemaTooNewException(int fileVersion, int supportedVersion) {
        this(fileVersion, supportedVersion, true);
    }

    /**
     * The file is newer than {@code supportedVersion}: the newest version this library knows when
     * {@code newestKnown}, else the older version the store was asked to keep files at.
     */
    public SchemaTooNewException(int fileVersion, int supportedVersion, boolean newestKnown) {
        super(ErrorType.SCHEMA_TOO_NEW, "Schema version " + fileVersion + " is newer than version " + supportedVersion
                + (newestKnown ? ", the newest this hermes-state knows; the file was left unchanged."
                        + " Upgrade hermes-state, or open the file read-only."
                        : ", the version this store keeps files at; the file was left unchanged."
                        + " Open it without keeping it at version " + supportedVersion + ", or read-only."));
        this.fileVersion = fileVersion;
        this.newestKnown = newestKnown;
        this.supportedVersion = supportedVersion;
    }

    public int fileVersion() {
        return fileVersion;
    }

    /** True when {@link #supportedVersion} is the newest this library knows, false when it is a pin. */
    public boolean newestKnown() {
        return newestKnown;
    }

    public int supportedVersion() {
        return supportedVersion;
    }
}
