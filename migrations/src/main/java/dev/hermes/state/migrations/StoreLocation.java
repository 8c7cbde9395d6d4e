package dev.hermes.state.migrations;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.postgresql.PostgresLocation;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Where a store lives, as a user writes it ({@code --db}, {@code hermes.state.db}, a benchmark's
 * target): a SQLite file path, or a PostgreSQL URL ({@code postgresql://}, {@code postgres://},
 * {@code jdbc:postgresql:}) with the schema the store lives in. The one place such text is told apart
 * and read: the library's builder, the command line, the migration jar, the Spring Boot starter and
 * the benchmark all come here. It lives in this module, the lowest that knows both engines and that
 * all of them depend on (the migration jar has nothing above it).
 */
public final class StoreLocation {
    private final @Nullable Path file;
    private final @Nullable PostgresLocation server;
    /** What {@link #toString()} shows: a file as the user wrote it, a server without its password. */
    private final String shown;

    private StoreLocation(@Nullable Path file, @Nullable PostgresLocation server, String shown) {
        this.file = file;
        this.server = server;
        this.shown = shown;
    }

    /**
     * True when {@code text} is written as a PostgreSQL URL rather than a file path. Told by its prefix
     * here, without the PostgreSQL module, which a user of files does not have.
     */
    public static boolean isUrl(@Nullable String text) {
        String lower = text == null ? "" : text.toLowerCase(Locale.ROOT);
        return lower.startsWith("postgresql://") || lower.startsWith("postgres://") || lower.startsWith("jdbc:postgresql:");
    }

    /**
     * Reads a file path or a PostgreSQL URL; the URL's store is in {@code schema} ({@code hermes} when
     * null). Errors never repeat a URL (it may hold a password).
     *
     * @throws InvalidArgumentException the text is null, a URL that cannot be read, a bad schema name,
     *         a schema given with a file, or a URL on a class path without the PostgreSQL module
     *         ({@link PostgresSupport})
     */
    public static StoreLocation parse(@Nullable String text, @Nullable String schema) {
        if (text == null) {
            throw new InvalidArgumentException("location must not be null");
        }
        if (!isUrl(text)) {
            if (schema != null) {
                throw new InvalidArgumentException("A schema is for a PostgreSQL store; " + text + " is a file");
            }
            return file(Path.of(text), text);
        }
        PostgresSupport.requireForMigration();
        PostgresLocation location = PostgresLocation.parse(text);
        return server(schema == null ? location : location.withSchema(schema));
    }

    /** The store in this file. */
    public static StoreLocation file(Path file) {
        return file(file, file.toString());
    }

    private static StoreLocation file(Path file, String shown) {
        return new StoreLocation(file, null, shown);
    }

    /** The store in this server's schema. */
    public static StoreLocation server(PostgresLocation server) {
        return new StoreLocation(null, server, server.toString());
    }

    /** True for a PostgreSQL store, false for a file. */
    public boolean isServer() {
        return server != null;
    }

    /** The file; an IllegalStateException for a server (ask {@link #isServer()} first). */
    public Path file() {
        if (file == null) {
            throw new IllegalStateException("a PostgreSQL store has no file");
        }
        return file;
    }

    /** The server and schema; an IllegalStateException for a file (ask {@link #isServer()} first). */
    public PostgresLocation server() {
        if (server == null) {
            throw new IllegalStateException("a file store has no server");
        }
        return server;
    }

    /** A file as written, a server as {@code postgresql://user@host:port/dbname (schema hermes)}: never a password. */
    @Override
    public String toString() {
        return shown;
    }
}
