package dev.hermes.state.testsupport;

import java.nio.file.Path;

/**
 * Copies a file that a connection of this JVM has open, as a backup tool would: from another
 * process ({@code cp}). A Java descriptor on it would drop this JVM's SQLite locks when closed
 * (see dev.hermes.state.sqlite.LiveFiles); another process's descriptors do not touch them.
 */
public final class LiveCopy {
    private LiveCopy() {
    }

    public static Path copy(Path from, Path to) {
        Command.of("cp", "--", from.toString(), to.toString()).run().ok();
        return to;
    }
}
