package dev.hermes.state;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * What a JDBC failure says of itself by SQLSTATE and JDBC's exception types, whichever driver raised
 * it: enough to tell a failure to connect before the engine behind a connection is known (an
 * application's DataSource), with no class of any engine's module. The engines' own rules build on it.
 */
public final class JdbcFailures {
    private JdbcFailures() {
    }

    /** The SQLSTATE of the first {@link SQLException} in the cause chain that has one, or "". */
    public static String sqlState(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return "";
    }

    /**
     * The server cannot be reached, refused the login, or ended the connection (shutting down,
     * restarting, starting up): SQLSTATE classes 08, 28, 3D and PostgreSQL's 57P01-57P05, or a pool that
     * found no connection in time (JDBC's connection exceptions). SQLite raises none of these.
     */
    public static boolean isConnectionFailure(Throwable failure) {
        String state = sqlState(failure);
        if (state.startsWith("08") || state.startsWith("28") || state.startsWith("3D") || state.startsWith("57P")) {
            return true;
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
        }
        return false;
    }
}
