package dev.hermes.state.bench.process;

import dev.hermes.state.postgresql.PostgresLocation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Keeps PostgreSQL passwords off the benchmark's child command lines, which every user of the machine
 * can read ({@code ps}, {@code /proc/PID/cmdline}). A command-line argument that is a PostgreSQL URL
 * with a password reaches the child without it; the child's driver (pgjdbc reads libpq's password
 * file when a login has no password) finds it in a password file readable only by this user, named
 * by {@code PGPASSFILE} in the child's environment, which other users cannot read.
 */
final class ChildLogin {
    /** The variable pgjdbc (like libpq) reads for the password file's path. */
    static final String PASSWORD_FILE_VARIABLE = "PGPASSFILE";

    /** One file per distinct set of logins, made once per benchmark process and removed at its exit. */
    private static final Map<String, Path> FILES = new ConcurrentHashMap<>();

    private ChildLogin() {
    }

    /**
     * {@code command} with every password taken out of its PostgreSQL URLs; when there was one, the
     * password file's variable is put in {@code environment}.
     */
    static List<String> withoutPasswords(List<String> command, Map<String, String> environment) {
        List<String> safe = new ArrayList<>(command.size());
        Set<String> lines = new LinkedHashSet<>();
        for (String argument : command) {
            Login login = StoreTarget.isUrl(argument) ? login(argument) : null;
            if (login == null) {
                safe.add(argument);
            } else {
                safe.add(login.url());
                lines.add(login.passwordFileLine());
            }
        }
        if (!lines.isEmpty()) {
            String content = String.join("\n", lines) + "\n";
            environment.put(PASSWORD_FILE_VARIABLE, FILES.computeIfAbsent(content, ChildLogin::write).toString());
        }
        return safe;
    }

    /** The URL without its password and the password file's line for it; null when it has no password. */
    private static @Nullable Login login(String target) {
        StoreTarget.Parts parts = StoreTarget.parts(target);
        String schema = parts.schema();
        PostgresLocation location = PostgresLocation.parse(parts.location());
        String password = location.connectionProperties().getProperty("password");
        if (password == null) {
            return null;
        }
        String user = location.user();
        // jdbcUrl() carries neither user nor password; the user goes back as a parameter
        String plain = location.jdbcUrl();
        if (user != null) {
            plain += (plain.indexOf('?') < 0 ? '?' : '&') + "user=" + percentEncode(user);
        }
        if (schema != null) {
            plain = StoreTarget.withSchema(plain, schema);
        }
        String line = String.join(":", escape(location.host()), Integer.toString(location.port()),
                escape(location.database()), user == null ? "*" : escape(user), escape(password));
        return new Login(plain, line);
    }

    private record Login(String url, String passwordFileLine) {
    }

    private static Path write(String content) {
        try {
            Path file = Files.createTempFile("hermes-bench-", ".pgpass",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            file.toFile().deleteOnExit();
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the children's password file", e);
        }
    }

    /** The password file's escaping: a backslash before ':' and '\'. */
    private static String escape(String field) {
        return field.replace("\\", "\\\\").replace(":", "\\:");
    }

    private static String percentEncode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c < 128 && Character.isLetterOrDigit(c)) || "-._~".indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return encoded.toString();
    }
}
