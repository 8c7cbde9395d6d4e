package dev.hermes.state.core.backend;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The store's one way to run a statement it runs often: written with the typed tables and named
 * parameters ({@code DSL.param(name, type)}), rendered once per dialect and {@link StoreSchema#shape
 * schema shape} with the store's jOOQ configuration, and run on the statement kept prepared on each
 * connection ({@link Transaction#withStatement}). For the frequent writes and the frequent or complex
 * reads, jOOQ's rendering and the engine's compilation cost more than running them. A statement whose
 * columns or rules depend on the store's schema is defined as a function of it ({@link #of(Function, String...)}).
 *
 * <p>Values are given in the declared order of the parameter names; at rendering, once per dialect,
 * the names are matched with the places the SQL holds them (each name exactly once), so a dialect
 * that writes clauses in another order (PostgreSQL's {@code OFFSET ... FETCH NEXT} for SQLite's
 * {@code LIMIT ... OFFSET}) binds each value to its own place.
 * Values are bound as they are given: pass what the column stores (epoch seconds as a double for a
 * timestamp, see {@link #epochSeconds}; JSON as text, see {@link #json}). Rows come back as jOOQ
 * records of the query's own fields (converters applied), so they map exactly like rows of a
 * directly executed query.
 */
public final class PreparedQuery {
    private final List<String> parameters;
    private final Function<@Nullable StoreSchema, ? extends Query> definition;
    /** The definition ignores the schema: one rendering per dialect. */
    private final boolean schemaIndependent;
    private final Field<?> @Nullable [] rowFields;
    private final Map<RenderKey, Rendered> rendered = new ConcurrentHashMap<>();
    /** The last rendering handed out: nearly every call of a store asks for it again. */
    private volatile @Nullable Last last;

    private record RenderKey(SQLDialect dialect, String shape) {
    }

    private record Last(SQLDialect dialect, StoreSchema schema, Rendered rendered) {
    }

    /**
     * The SQL; for a query that returns rows, the fields of its rows (else null); for each place of
     * the SQL, in order, the index of its declared parameter.
     */
    @SuppressWarnings("ArrayRecordComponent") // private and never compared: the arrays are read by index only
    private record Rendered(String sql, Field<?> @Nullable [] fields, int[] declaredIndex) {
    }

    private PreparedQuery(Function<@Nullable StoreSchema, ? extends Query> definition, boolean schemaIndependent,
                          Field<?> @Nullable [] rowFields, List<String> parameters) {
        this.parameters = List.copyOf(parameters);
        this.definition = definition;
        this.schemaIndependent = schemaIndependent;
        this.rowFields = rowFields;
    }

    /**
     * A statement that is the same whatever the store's schema.
     *
     * @param definition builds the statement (called once per dialect, on first use)
     * @param parameters the statement's parameter names in the order they appear in the SQL, each once
     */
    public static PreparedQuery of(Supplier<? extends Query> definition, String... parameters) {
        return new PreparedQuery(schema -> definition.get(), true, null, List.of(parameters));
    }

    /**
     * A statement whose columns or conditions depend on the store's schema (a column a file lacks, the
     * rules of the agent the store follows).
     *
     * @param definition builds the statement for a schema (called once per dialect and schema shape)
     * @param parameters the statement's parameter names in the order they appear in the SQL, each once
     */
    public static PreparedQuery of(Function<StoreSchema, ? extends Query> definition, String... parameters) {
        return new PreparedQuery(schema -> definition.apply(Objects.requireNonNull(schema)), false, null, List.of(parameters));
    }

    /** As {@link #of(Supplier, String...)}, with the rows read as {@code rowFields} (for rows of a derived table, say). */
    public static PreparedQuery of(Supplier<? extends Query> definition, List<Field<?>> rowFields, List<String> parameters) {
        return new PreparedQuery(schema -> definition.get(), true, rowFields.toArray(Field<?>[]::new), parameters);
    }

    /** As {@link #of(Function, String...)}, with the rows read as {@code rowFields} (for rows of a derived table, say). */
    public static PreparedQuery of(Function<StoreSchema, ? extends Query> definition, List<Field<?>> rowFields,
                                   List<String> parameters) {
        return new PreparedQuery(schema -> definition.apply(Objects.requireNonNull(schema)), false,
                rowFields.toArray(Field<?>[]::new), parameters);
    }

    /**
     * A parameter for a JSON column, bound as plain text: the values are JSON text already (or, in a
     * file the Python agent wrote, any text), so nothing may cast or check them on the way in.
     */
    public static Field<JSON> json(String name) {
        return DSL.param(name, SQLDataType.CLOB).coerce(SQLDataType.JSON);
    }

    /** A parameter for a timestamp column, bound as the epoch-seconds double the column stores. */
    public static Field<Instant> epochSeconds(String name, Field<Instant> column) {
        return DSL.param(name, SQLDataType.DOUBLE).coerce(column);
    }

    /** Runs the query with {@code values} bound to the parameters, in their declared order. */
    public Result<Record> fetch(Transaction transaction, @Nullable Object... values) throws SQLException {
        DSLContext dsl = transaction.dsl();
        Rendered query = rendered(transaction);
        Field<?>[] fields = query.fields();
        if (fields == null) {
            throw new IllegalStateException("Not a query that returns rows: " + query.sql());
        }
        return transaction.withStatement(query.sql(), statement -> {
            bind(statement, query, values);
            try (ResultSet rows = statement.executeQuery()) {
                return dsl.fetch(rows, fields);
            }
        });
    }

    /** The first column of the one row the statement returns (an insert's {@code RETURNING id}, a count). */
    public long fetchLong(Transaction transaction, @Nullable Object... values) throws SQLException {
        Rendered query = rendered(transaction);
        return transaction.withStatement(query.sql(), statement -> {
            bind(statement, query, values);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("No row from " + query.sql());
                }
                return rows.getLong(1);
            }
        });
    }

    /** What a caller does with the rows of a query when it reads their columns itself. */
    @FunctionalInterface
    public interface RowsWork<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /**
     * Runs the query with {@code values} bound and hands its rows to {@code work} as the driver returns
     * them, with no conversion (for a copy, which must see exactly what each column holds).
     */
    public <T> T query(Transaction transaction, RowsWork<T> work, @Nullable Object... values) throws SQLException {
        Rendered query = rendered(transaction);
        return transaction.withStatement(query.sql(), statement -> {
            bind(statement, query, values);
            try (ResultSet rows = statement.executeQuery()) {
                return work.read(rows);
            }
        });
    }

    /**
     * Runs the statement once for each array of values, as one JDBC batch (one array: one plain
     * execution, which costs the driver less); returns the rows each run changed.
     */
    public int[] executeBatch(Transaction transaction, List<@Nullable Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return new int[0];
        }
        if (rows.size() == 1) {
            return new int[]{execute(transaction, rows.get(0))};
        }
        Rendered query = rendered(transaction);
        return transaction.withStatement(query.sql(), statement -> {
            for (@Nullable Object[] values : rows) {
                bind(statement, query, values);
                statement.addBatch();
            }
            return statement.executeBatch();
        });
    }

    /** Runs the statement (an insert, update or delete) with {@code values} bound; returns the rows it changed. */
    public int execute(Transaction transaction, @Nullable Object... values) throws SQLException {
        Rendered query = rendered(transaction);
        return transaction.withStatement(query.sql(), statement -> {
            bind(statement, query, values);
            return statement.executeUpdate();
        });
    }

    /**
     * The SQL for a store of {@code schema} in {@code dsl}'s dialect, for a caller that binds and reads by
     * position itself ({@link Transaction#withStatement}); {@code dsl} need not have a connection, so the
     * SQL can be ready before a write transaction takes the lock.
     */
    public String sql(DSLContext dsl, StoreSchema schema) {
        Rendered rendering = rendered(dsl, schema);
        int[] declaredIndex = rendering.declaredIndex();
        for (int place = 0; place < declaredIndex.length; place++) {
            if (declaredIndex[place] != place) {
                throw new IllegalStateException("The SQL binds " + parameters + " in another order; run it with"
                        + " execute or fetch, which bind by name: " + rendering.sql());
            }
        }
        return rendering.sql();
    }

    /** The rendering for the transaction's store; its schema is only asked for when the statement depends on it. */
    private Rendered rendered(Transaction transaction) {
        DSLContext dsl = transaction.dsl();
        if (schemaIndependent) {
            return rendered.computeIfAbsent(new RenderKey(dsl.dialect(), ""), key -> render(dsl, null));
        }
        return rendered(dsl, transaction.schema());
    }

    private Rendered rendered(DSLContext dsl, StoreSchema schema) {
        SQLDialect dialect = dsl.dialect();
        Last known = last;
        if (known != null && known.schema() == schema && known.dialect() == dialect) {
            return known.rendered();
        }
        RenderKey key = new RenderKey(dialect, schemaIndependent ? "" : schema.shape());
        Rendered rendering = rendered.computeIfAbsent(key, k -> render(dsl, schema));
        last = new Last(dialect, schema, rendering);
        return rendering;
    }

    private void bind(PreparedStatement statement, Rendered query, @Nullable Object[] values) throws SQLException {
        if (values.length != parameters.size()) {
            throw new IllegalArgumentException("Expected values for " + parameters + ", got " + values.length);
        }
        int[] declaredIndex = query.declaredIndex();
        for (int place = 0; place < declaredIndex.length; place++) {
            statement.setObject(place + 1, values[declaredIndex[place]]);
        }
    }

    private Rendered render(DSLContext dsl, @Nullable StoreSchema schema) {
        Query query = definition.apply(schema);
        List<String> named = new ArrayList<>();
        // the parameters in the order this dialect's SQL holds them; the inlined ones are SQL literals, not binds
        dsl.extractParams(query).forEach((name, param) -> {
            if (!param.isInline()) {
                named.add(name);
            }
        });
        int bindValues = dsl.extractBindValues(query).size();
        if (named.size() != parameters.size() || !named.containsAll(parameters) || bindValues != parameters.size()) {
            throw new IllegalStateException("Query parameters " + named + " (" + bindValues
                    + " bind values) do not match the declared " + parameters + ": " + dsl.render(query));
        }
        int[] declaredIndex = named.stream().mapToInt(parameters::indexOf).toArray();
        // The select list itself, not query.fields() (copies): rows then hold the tables' own field objects.
        Field<?>[] fields = rowFields != null ? rowFields
                : query instanceof Select<?> select ? select.getSelect().toArray(Field<?>[]::new)
                : query instanceof ResultQuery<?> result ? result.fields() : null;
        return new Rendered(dsl.render(query), fields, declaredIndex);
    }
}
