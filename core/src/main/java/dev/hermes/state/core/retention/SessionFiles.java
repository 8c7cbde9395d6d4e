package dev.hermes.state.core.retention;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * The transcript files the agent keeps beside the store for a session, removed after the session is
 * deleted (outside the database transaction, as the agent does): {@code <id>.json}, {@code <id>.jsonl}
 * and the gateway's {@code request_dump_<id>_*.json} in the sessions folder. Best effort: a file that
 * is missing, a folder in place of a file, or a failure to remove one is passed over, since the
 * session is gone by then either way. Only entries directly in the folder are touched: an id that
 * would name a path elsewhere (one with a separator, or {@code ..}) removes nothing.
 */
public final class SessionFiles {
    private SessionFiles() {
    }

    /** Removes the files of every session of {@code sessionIds} from {@code sessionsDir}; nothing when it is null. */
    public static void remove(@Nullable Path sessionsDir, Collection<String> sessionIds) {
        if (sessionsDir == null) {
            return;
        }
        for (String sessionId : sessionIds) {
            remove(sessionsDir, sessionId);
        }
    }

    private static void remove(Path sessionsDir, String sessionId) {
        if (!isPlainName(sessionId)) {
            return;
        }
        removeFile(sessionsDir.resolve(sessionId + ".json"));
        removeFile(sessionsDir.resolve(sessionId + ".jsonl"));
        // the agent globs request_dump_<id>_*.json, so the id's own glob characters match as patterns too
        Pattern dumps = Pattern.compile(Glob.toRegex("request_dump_" + sessionId + "_*.json"));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sessionsDir)) {
            for (Path entry : entries) {
                if (dumps.matcher(entry.getFileName().toString()).matches()) {
                    removeFile(entry);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // no folder, or one that cannot be listed: nothing to remove
        }
    }

    /** A name of an entry of the folder itself. */
    private static boolean isPlainName(String sessionId) {
        return !sessionId.isEmpty() && !sessionId.equals(".") && !sessionId.equals("..")
                && sessionId.indexOf('/') < 0 && sessionId.indexOf('\\') < 0 && sessionId.indexOf('\0') < 0;
    }

    /** Removes a file or a symbolic link (never what it points to), never a folder. */
    private static void removeFile(Path file) {
        try {
            if (!Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException kept) {
            // best effort, as the agent's unlink(missing_ok=True) inside except OSError
        }
    }

    /** Python's {@code fnmatch} patterns ({@code *}, {@code ?}, {@code [seq]}, {@code [!seq]}), case-sensitive. */
    static final class Glob {
        private Glob() {
        }

        static String toRegex(String pattern) {
            StringBuilder regex = new StringBuilder();
            int i = 0;
            int n = pattern.length();
            while (i < n) {
                char c = pattern.charAt(i++);
                if (c == '*') {
                    regex.append(".*");
                } else if (c == '?') {
                    regex.append('.');
                } else if (c == '[') {
                    int j = i;
                    if (j < n && pattern.charAt(j) == '!') {
                        j++;
                    }
                    if (j < n && pattern.charAt(j) == ']') {
                        j++;
                    }
                    while (j < n && pattern.charAt(j) != ']') {
                        j++;
                    }
                    if (j >= n) {
                        regex.append("\\[");
                    } else {
                        String set = pattern.substring(i, j);
                        i = j + 1;
                        StringBuilder members = new StringBuilder();
                        int start = 0;
                        if (set.startsWith("!")) {
                            members.append('^');
                            start = 1;
                        } else if (set.startsWith("^")) {
                            members.append("\\^");
                            start = 1;
                        }
                        for (int k = start; k < set.length(); k++) {
                            char m = set.charAt(k);
                            if (m == '\\' || m == '[' || m == ']' || m == '&' || m == '~' || m == '|') {
                                members.append('\\');
                            }
                            members.append(m);
                        }
                        regex.append('[').append(members).append(']');
                    }
                } else {
                    regex.append(Pattern.quote(String.valueOf(c)));
                }
            }
            return "(?s)" + regex;
        }
    }
}
