package dev.hermes.state.springboot;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;

import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** What {@code hermes.state.db} names: a file (the default one when absent), or a PostgreSQL server. */
final class StoreLocation {
    private static final String SQLITE_URL = "jdbc:sqlite:";

    private StoreLocation() {
    }

    /**
     * A builder for the store {@code db} names: a PostgreSQL URL (in {@code schema}, {@code hermes}
     * when null), or a file; a schema for a file is refused.
     */
    static StateRepository.Builder of(@Nullable String db, @Nullable String schema) {
        if (db != null && StateRepository.isUrl(db.strip())) {
            return StateRepository.builder().url(db.strip()).schema(schema);
        }
        if (schema != null) {
            throw new InvalidArgumentException("hermes.state.schema is for a PostgreSQL store, and hermes.state.db"
                    + " names a file");
        }
        return StateRepository.builder().path(file(db));
    }

    /** The store file {@code db} names; anything else with a scheme (but a PostgreSQL URL) is refused. */
    static Path file(@Nullable String db) {
        if (db == null || db.isBlank()) {
            return StateRepository.defaultPath();
        }
        String location = db.strip();
        String lower = location.toLowerCase(Locale.ROOT);
        if (StateRepository.isUrl(location)) {
            // the URL itself is not repeated: it may hold a password
            throw new InvalidArgumentException("hermes.state.db is a PostgreSQL URL, not a file");
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
