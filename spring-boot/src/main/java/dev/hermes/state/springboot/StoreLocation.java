package dev.hermes.state.springboot;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;

import java.nio.file.Path;
import java.util.Locale;

/** What {@code hermes.state.db} names: a file (the default one when absent), or a PostgreSQL server. */
final class StoreLocation {
    private static final String SQLITE_URL = "jdbc:sqlite:";

    private StoreLocation() {
    }

    /** The store file {@code db} names; a PostgreSQL URL or anything else with a scheme is refused. */
    static Path file(String db) {
        if (db == null || db.isBlank()) {
            return StateRepository.defaultPath();
        }
        String location = db.strip();
        String lower = location.toLowerCase(Locale.ROOT);
        if (lower.startsWith("postgresql:") || lower.startsWith("postgres:") || lower.startsWith("jdbc:postgresql:")) {
            // the URL itself is not repeated: it may hold a password
            throw new InvalidArgumentException("hermes.state.db is a PostgreSQL URL: this hermes-state-core opens"
                    + " SQLite files only; PostgreSQL support comes with the PostgreSQL backend");
        }
        if (lower.startsWith(SQLITE_URL)) {
            location = location.substring(SQLITE_URL.length());
            if (location.isEmpty() || location.startsWith(":memory:") || location.contains("?")) {
                throw new InvalidArgumentException("hermes.state.db: a jdbc:sqlite: URL must name a file, without"
                        + " options, got '" + db + "'");
            }
        } else if (location.matches("[A-Za-z][A-Za-z0-9+.-]*://.*")) {
            throw new InvalidArgumentException("hermes.state.db must be a file path or a PostgreSQL URL, got '"
                    + location.substring(0, location.indexOf(':')) + ":...'");
        }
        if (location.equals("~") || location.startsWith("~/")) {
            return Path.of(System.getProperty("user.home")).resolve(location.substring(1).replaceFirst("^/", ""));
        }
        return Path.of(location);
    }
}
