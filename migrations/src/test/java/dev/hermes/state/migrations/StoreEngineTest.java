package dev.hermes.state.migrations;

import dev.hermes.state.BusyException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.sqlite.SqliteErrors;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The engine is told once, and its failures are typed by its own rules; before it is known, a failure
 * to connect is an I/O failure and anything else SQLite's (without the PostgreSQL module too:
 * core's WithoutPostgresqlTest).
 */
class StoreEngineTest {

    @Test
    void theEngineIsTheOneTheDatabaseProductNames() throws SQLException {
        assertEquals(StoreEngine.POSTGRESQL, StoreEngine.ofProduct("PostgreSQL"));
        assertEquals(StoreEngine.SQLITE, StoreEngine.ofProduct("SQLite"));
        assertEquals(StoreEngine.SQLITE, StoreEngine.ofProduct(null));
        try (Connection memory = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertEquals(StoreEngine.SQLITE, StoreEngine.of(memory));
        }
    }

    @Test
    void eachEngineTypesFailuresByItsOwnRules() {
        assertSame(SqliteErrors.FAILURES, StoreEngine.SQLITE.failures());
        assertSame(PostgresErrors.FAILURES, StoreEngine.POSTGRESQL.failures());
        SQLException deadlock = new SQLException("ERROR: deadlock detected", "40P01");
        assertInstanceOf(BusyException.class, StoreEngine.POSTGRESQL.failures().translate(deadlock, "testing"));
        assertEquals(ErrorType.INTERNAL, ((HermesStateException) StoreEngine.SQLITE.failures().translate(deadlock, "testing")).type());
    }

    @Test
    void beforeTheEngineIsKnownAFailureToConnectIsAnIoFailure() {
        RuntimeException refused = StoreEngine.UNDECIDED.translate(new SQLException("Connection refused", "08001"), "connecting");
        assertInstanceOf(StateIOException.class, refused);
        assertEquals("Cannot connect while connecting: Connection refused", refused.getMessage());
        assertInstanceOf(StateIOException.class, StoreEngine.UNDECIDED.translate(
                new SQLException("FATAL: password authentication failed", "28P01"), "connecting"));
        assertInstanceOf(StateIOException.class, StoreEngine.UNDECIDED.translate(new RuntimeException("pool",
                new SQLTransientConnectionException("no connection within 1000 ms")), "connecting"));
        // SQLite's own failures by their result codes
        assertInstanceOf(BusyException.class, StoreEngine.UNDECIDED.translate(
                new SQLException("[SQLITE_BUSY] database is locked (database is locked)", null, 5), "connecting"));
        assertInstanceOf(StateIOException.class, StoreEngine.UNDECIDED.translate(
                new SQLException("[SQLITE_CANTOPEN] unable to open (no such folder)", null, 14), "connecting"));
    }

    @Test
    void aConnectionThatCannotSayItsEngineFailsTyped() {
        Connection broken = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    throw new SQLException("This connection has been closed.", "08003");
                });
        StateIOException e = assertThrows(StateIOException.class, () -> StoreEngine.of(broken));
        assertEquals("Cannot connect while reading the connection's database product: This connection has been closed.",
                e.getMessage());
    }
}
