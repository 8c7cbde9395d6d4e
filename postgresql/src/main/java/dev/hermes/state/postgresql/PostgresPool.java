package dev.hermes.state.postgresql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.time.Duration;
import java.util.Properties;

/**
 * The connection pools of a store on a PostgreSQL server (HikariCP), sized and validated for a
 * server that can restart while the store is open. A store borrows a connection for one unit of work
 * (a read, a write transaction) and gives it back at once, so a connection that a restart broke is
 * found out and replaced, never kept.
 *
 * <p>The settings, and why:
 * <ul>
 *   <li>{@code minimumIdle} 0: no connection is opened before it is needed (a command that reads once
 *       opens one), and none is kept once the application stops using the store for
 *       {@link #IDLE_TIMEOUT}; the pool never holds more than its maximum (a writer pool of one, a
 *       reader pool of {@code readerPoolSize}), so many processes can share one server.</li>
 *   <li>Validation: a connection idle for more than half a second is checked ({@code isValid}, the
 *       driver's empty query) before it is handed out, within {@link #VALIDATION_TIMEOUT}; idle ones
 *       are pinged every {@link #KEEPALIVE} and retired after {@link #MAX_LIFETIME}, before servers,
 *       proxies or firewalls drop them. A connection that failed with a connection-class error
 *       (SQLSTATE 08..., 57P01-57P03) is thrown away by the pool when it is given back.</li>
 *   <li>{@link #CONNECTION_TIMEOUT}: how long a borrow waits for the server, new connections being
 *       attempted meanwhile. A restart of a few seconds is ridden out; a server that stays down
 *       gives the caller a typed error after that time, and the next call tries again.</li>
 *   <li>No connection at pool creation ({@code initializationFailTimeout} -1): the store's opening has
 *       already talked to the server (the migrator's check), and failures belong to the call that
 *       meets them.</li>
 *   <li>Auto-commit connections: the store starts every transaction itself. The session settings are
 *       made once per new connection: the store's schema as search path, and either reads that cannot
 *       write ({@code default_transaction_read_only}) or, for writers, the lock timeout (the store's
 *       busy timeout: a write that waits longer for a lock is retried as a whole).</li>
 * </ul>
 * Only configuration API that HikariCP 6.3 (what Spring Boot 3.5 pins) and 7.x both have is used.
 */
public final class PostgresPool {
    public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration KEEPALIVE = Duration.ofMinutes(2);
    public static final Duration MAX_LIFETIME = Duration.ofMinutes(30);
    /** The driver's socket connect timeout, in seconds: a host that does not answer fails within the borrow's wait. */
    private static final String CONNECT_TIMEOUT_SECONDS = "4";

    private PostgresPool() {
    }

    /** What the connections of a pool are for. */
    public enum Use {
        /** Writes: one transaction at a time per store; locks wait at most the lock timeout. */
        WRITE,
        /** Reads: every transaction, even a lone auto-commit query, is read-only. */
        READ
    }

    /**
     * A pool of at most {@code size} connections to the store at {@code location}, for {@code use}.
     * Nothing is connected yet. The pool's name (shown in its threads) names the schema, never a login.
     *
     * @param lockTimeout for {@link Use#WRITE}: how long a statement waits for another transaction's lock
     */
    public static HikariDataSource open(PostgresLocation location, Use use, int size, Duration lockTimeout) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("hermes-state-" + location.schema() + "-" + use.name().toLowerCase(java.util.Locale.ROOT));
        config.setDriverClassName("org.postgresql.Driver");
        config.setJdbcUrl(location.jdbcUrl());
        Properties login = location.connectionProperties();
        String user = login.getProperty("user");
        if (user != null) {
            config.setUsername(user);
        }
        String password = login.getProperty("password");
        if (password != null) {
            config.setPassword(password);
        }
        login.stringPropertyNames().stream()
                .filter(name -> !name.equals("user") && !name.equals("password"))
                .forEach(name -> config.addDataSourceProperty(name, login.getProperty(name)));
        config.addDataSourceProperty("connectTimeout", CONNECT_TIMEOUT_SECONDS);
        config.addDataSourceProperty("tcpKeepAlive", "true");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        config.setValidationTimeout(VALIDATION_TIMEOUT.toMillis());
        config.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        config.setKeepaliveTime(KEEPALIVE.toMillis());
        config.setMaxLifetime(MAX_LIFETIME.toMillis());
        config.setInitializationFailTimeout(-1);
        config.setAutoCommit(true);
        config.setConnectionInitSql(sessionSettings(location.schema(), use, lockTimeout));
        return new HikariDataSource(config);
    }

    /**
     * The statement a new connection runs once: the schema's search path plus the settings of its use.
     * Also what a connection lent by an application gets for the time the store uses it
     * ({@link #resetSessionSettings} undoes it).
     */
    public static String sessionSettings(String schema, Use use, Duration lockTimeout) {
        String searchPath = "SET search_path TO \"" + PostgresLocation.checkSchema(schema) + "\"";
        return use == Use.READ
                ? searchPath + "; SET default_transaction_read_only TO on"
                : searchPath + "; SET default_transaction_read_only TO off; SET lock_timeout TO '"
                + Math.max(1, lockTimeout.toMillis()) + "ms'";
    }

    /** Undoes {@link #sessionSettings} on a connection that goes back to an application's pool. */
    public static String resetSessionSettings() {
        return "RESET search_path; RESET default_transaction_read_only; RESET lock_timeout";
    }
}
