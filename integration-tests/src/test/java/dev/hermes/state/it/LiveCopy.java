package dev.hermes.state.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Copies a file that a connection of this JVM has open, as a backup tool would: from another
 * process ({@code cp}). A Java descriptor on it would drop this JVM's SQLite locks when closed
 * (see dev.hermes.state.sqlite.LiveFiles); another process's descriptors do not touch them.
 */
public final class LiveCopy {
    private LiveCopy() {
    }

    public static Path copy(Path from, Path to) throws IOException, InterruptedException {
        Process cp = new ProcessBuilder("cp", "--", from.toString(), to.toString()).inheritIO().start();
        if (!cp.waitFor(60, TimeUnit.SECONDS) || cp.exitValue() != 0) {
            cp.destroyForcibly();
            throw new IOException("cp " + from + " " + to + " failed");
        }
        return to;
    }
}
