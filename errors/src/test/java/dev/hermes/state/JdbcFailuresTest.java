package dev.hermes.state;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failure to connect told by SQLSTATE or JDBC's exception types, wherever it sits in the cause chain. */
class JdbcFailuresTest {

    @Test
    void theSqlStateIsTheFirstOneTheChainCarries() {
        assertEquals("", JdbcFailures.sqlState(new RuntimeException("no database involved")));
        // sqlite-jdbc's failures carry a result code and no SQLSTATE
        assertEquals("", JdbcFailures.sqlState(new SQLException("[SQLITE_BUSY] database is locked", null, 5)));
        assertEquals("08001", JdbcFailures.sqlState(new RuntimeException("pool", new SQLException("wrapper", null,
                new SQLException("refused", "08001")))));
        assertEquals("25P02", JdbcFailures.sqlState(new SQLException("aborted", "25P02", new SQLException("x", "55P03"))));
    }

    @Test
    void connectionFailuresAreTheServersRefusalsAndThePoolsTimeouts() {
        for (String state : new String[] {"08001", "08006", "28P01", "3D000", "57P01", "57P03"}) {
            assertTrue(JdbcFailures.isConnectionFailure(new SQLException("x", state)), state);
        }
        for (String state : new String[] {"23505", "40001", "42501", "53300", "57014", "XX000"}) {
            assertFalse(JdbcFailures.isConnectionFailure(new SQLException("x", state)), state);
        }
        assertTrue(JdbcFailures.isConnectionFailure(new RuntimeException("pool failed to start",
                new SQLTransientConnectionException("no connection within 1000 ms"))));
        assertTrue(JdbcFailures.isConnectionFailure(new SQLNonTransientConnectionException("gone")));
        assertFalse(JdbcFailures.isConnectionFailure(new SQLException("[SQLITE_CANTOPEN] unable to open", null, 14)));
    }
}
