package dev.hermes.state;

/**
 * The file was written by a newer Hermes than this library knows. It is never migrated or written;
 * opening it read-only still works as long as the version-6 columns exist.
 */
public final class SchemaTooNewException extends HermesStateException {
    private final int fileVersion;
    private final int supportedVersion;

    public SchemaTooNewException(int fileVersion, int supportedVersion) {
        super(ErrorType.SCHEMA_TOO_NEW, "Schema version " + fileVersion + " is newer than version "
                + supportedVersion + ", the newest this hermes-state knows; the file was left unchanged."
                + " Upgrade hermes-state, or open the file read-only.");
        this.fileVersion = fileVersion;
        this.supportedVersion = supportedVersion;
    }

    public int fileVersion() {
        return fileVersion;
    }

    public int supportedVersion() {
        return supportedVersion;
    }
}
