package dev.hermes.state.core;

import dev.hermes.state.core.connection.Transaction;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Select;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A statement written with the typed tables and named parameters ({@code DSL.param(name, type)}),
 * rendered once per dialect and run on the statement kept prepared on each connection: for the
 * store's frequent writes and its frequent or complex reads, jOOQ's rendering and SQLite's
 * compilation cost more than running them. Rows of a query come back as jOOQ records of the
 * query's own fields (converters applied), so they map exactly like rows of a directly executed
 * query. Values are bound as they are given: pass what the column stores (epoch seconds as a
 * double for a timestamp, JSON as text).
 */
final class CachedQuery {
    private final List<String> parameters;
    private final Supplier<? extends Query> definition;
    private final Map<SQLDialect, Rendered> rendered = new ConcurrentHashMap<>();

    /** The SQL, and for a query that returns rows, the fields of its rows (else null). */
    private record Rendered(String sql, Field<?>[] fields) {
    }

    /**
     * @param parameters the statement's parameter names in the order they appear in the SQL, each once
     * @param definition builds the statement (called once per dialect, on first use)
     */
    CachedQuery(List<String> parameters, Supplier<? extends Query> definition) {
        this.parameters = List.copyOf(parameters);
        this.definition = definition;
    }

    /** Runs the query with {@code values} bound to the parameters, in their declared order. */
    Result<Record> fetch(Transaction transaction, Object... values) throws SQLException {
        DSLContext dsl = transaction.dsl();
        Rendered query = rendered(dsl);
        if (query.fields() == null) {
            throw new IllegalStateException("Not a query that returns rows: " + query.sql());
        }
        return transaction.withStatement(query.sql(), statement -> {
            bind(statement, values);
            try (ResultSet rows = statement.executeQuery()) {
                return dsl.fetch(rows, query.fields());
            }
        });
    }

    /** Runs the statement (an insert, update or delete) with {@code values} bound; returns the rows it changed. */
    int execute(Transaction transaction, Object... values) throws SQLException {
        return transaction.withStatement(rendered(transaction.dsl()).sql(), statement -> {
            bind(statement, values);
            return statement.executeUpdate();
        });
    }

    private Rendered rendered(DSLContext dsl) {
        return rendered.computeIfAbsent(dsl.dialect(), dialect -> render(dsl));
    }

    private void bind(PreparedStatement statement, Object[] values) throws SQLException {
        if (values.length != parameters.size()) {
            throw new IllegalArgumentException("Expected values for " + parameters + ", got " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
    }

    private Rendered render(DSLContext dsl) {
        Query query = definition.get();
        List<String> named = new ArrayList<>();
        query.getParams().forEach((name, param) -> {
            if (!param.isInline()) {
                named.add(name);
            }
        });
        if (!named.equals(parameters) || query.getBindValues().size() != parameters.size()) {
            throw new IllegalStateException("Query parameters " + named + " (" + query.getBindValues().size()
                    + " bind values) do not match the declared " + parameters + ": " + dsl.render(query));
        }
        // The select list itself, not query.fields() (copies): rows then hold the tables' own field objects.
        Field<?>[] fields = query instanceof Select<?> select ? select.getSelect().toArray(Field<?>[]::new)
                : query instanceof ResultQuery<?> result ? result.fields() : null;
        return new Rendered(dsl.render(query), fields);
    }
}
