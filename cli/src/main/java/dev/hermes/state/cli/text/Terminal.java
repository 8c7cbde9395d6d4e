package dev.hermes.state.cli.text;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Whether stdout and stderr are terminals. Java has no isatty; {@code System.console()} only says
 * whether stdin <em>and</em> stdout both are, which is wrong exactly when it matters (an export piped
 * to a file still wants its progress bar on the terminal's stderr). On Linux the answer is where
 * {@code /proc/self/fd/N} points; elsewhere we fall back to {@code System.console()}.
 */
public final class Terminal {
    public static final int STDIN = 0;
    public static final int STDOUT = 1;
    public static final int STDERR = 2;

    private Terminal() {
    }

    public static boolean isTerminal(int fd) {
        Path link = Path.of("/proc/self/fd/" + fd);
        try {
            if (Files.isSymbolicLink(link)) {
                String target = Files.readSymbolicLink(link).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
            }
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            // no /proc: fall through
        }
        return interactiveConsole() != null;
    }

    /**
     * The console when stdin and stdout are both terminals, else null. From JDK 22 on
     * {@code System.console()} is not null for pipes either, and only {@code Console.isTerminal()}
     * (absent from Java 17, hence the reflective call) tells the two apart.
     */
    @SuppressWarnings("SystemConsoleNull") // the JDK 22+ case is the reflective isTerminal below
    public static @Nullable Console interactiveConsole() {
        Console console = System.console();
        if (console == null) {
            return null;
        }
        try {
            Object terminal = Console.class.getMethod("isTerminal").invoke(console);
            return Boolean.TRUE.equals(terminal) ? console : null;
        } catch (ReflectiveOperationException e) {
            return console; // Java 17 to 21: a console exists only for a terminal
        }
    }

    /** Colours are wanted: stdout is a terminal that understands them and the user did not opt out (NO_COLOR). */
    public static boolean wantsColors() {
        String noColor = System.getenv("NO_COLOR");
        String term = System.getenv("TERM");
        return (noColor == null || noColor.isEmpty()) && !"dumb".equals(term) && isTerminal(STDOUT);
    }
}
