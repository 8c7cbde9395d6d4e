package dev.hermes.state.core.connection;

import org.jooq.DSLContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

/**
 * The open write transaction handed to a unit of write work: the jOOQ context bound to the writer
 * connection, and prepared statements kept on that connection across transactions for the hottest
 * writes (rendering and preparing them once saves most of the per-call overhead at thousands of
 * transactions a second). Valid only while the work runs; never commit or roll back through it.
 */
public final class WriteTransaction {
    private final DSLContext dsl;
    private final Connection connection;
    private final Map<String, PreparedStatement> statements;

    WriteTransaction(DSLContext dsl, Connection connection, Map<String, PreparedStatement> statements) {
        this.dsl = dsl;
        this.connection = connection;
        this.statements = statements;
    }

    public DSLContext dsl() {
        return dsl;
    }

    /** The statement for {@code sql}, prepared on the first call and reused until the store closes. */
    public PreparedStatement prepared(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }
}
