package dev.hermes.state.migrations;

import dev.hermes.state.InvalidArgumentException;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Whether this class path can serve a PostgreSQL store. The PostgreSQL engine is a module a user
 * chooses: {@code dev.hermes:hermes-state-postgresql} brings its URL and SQLSTATE rules, the JDBC
 * driver and the HikariCP pool; a user of files leaves it out, and nothing on the way to a file
 * loads a class of it. A PostgreSQL location on a class path without it is refused here, by name of
 * the artifact to add, before any class of the engine is touched.
 */
public final class PostgresSupport {
    /** The artifact a user adds for a PostgreSQL store. */
    public static final String ARTIFACT = "dev.hermes:hermes-state-postgresql";

    /** The engine's own rules (URL, SQLSTATEs): the module itself. */
    private static final String ENGINE = "dev.hermes.state.postgresql.PostgresLocation";
    /** The JDBC driver, which the module brings. */
    private static final String DRIVER = "org.postgresql.Driver";
    /** The pool of a store's connections, which the module brings (the migrator connects without one). */
    private static final String POOL = "com.zaxxer.hikari.HikariDataSource";

    private PostgresSupport() {
    }

    /**
     * Checks the class path can migrate a PostgreSQL store (the module and the driver).
     *
     * @throws InvalidArgumentException naming {@link #ARTIFACT} when a part is missing
     */
    public static void requireForMigration() {
        require(false);
    }

    /**
     * Checks the class path can serve a PostgreSQL store (the module, the driver and the pool).
     *
     * @throws InvalidArgumentException naming {@link #ARTIFACT} when a part is missing
     */
    public static void requireForStore() {
        require(true);
    }

    private static void require(boolean pool) {
        String missing = missing(pool);
        if (missing != null) {
            throw new InvalidArgumentException("A PostgreSQL store needs " + ARTIFACT + " on the class path (it brings"
                    + " the PostgreSQL JDBC driver and HikariCP); add that dependency: " + missing + " is not there");
        }
    }

    /** The first class of the engine this class path lacks, or null; the classes are found, never initialized. */
    private static @Nullable String missing(boolean pool) {
        for (String name : pool ? List.of(ENGINE, DRIVER, POOL) : List.of(ENGINE, DRIVER)) {
            if (!found(name)) {
                return name;
            }
        }
        return null;
    }

    /** Whether the class is on the class path: found, never initialized. */
    private static boolean found(String name) {
        try {
            Class.forName(name, false, PostgresSupport.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
