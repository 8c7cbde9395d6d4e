package dev.hermes.state.core.messages;

import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A statement of the message hot paths, written with the typed tables and named parameters and
 * rendered once per dialect, so that a call runs only JDBC: its rows are read by column position
 * straight into the API's records (no jOOQ record per row), and a write can have its SQL ready
 * before it takes the database's write lock (a cold process spent up to seconds rendering inside
 * {@code BEGIN IMMEDIATE} while other writers waited).
 *
 * <p>The parameter names are checked at rendering against the order in which the SQL binds them.
 */
final class RenderedSql {
    private final Supplier<? extends Query> definition;
    private final List<String> parameters;
    private final Map<SQLDialect, String> rendered = new ConcurrentHashMap<>();

    RenderedSql(Supplier<? extends Query> definition, String... parameters) {
        this.definition = definition;
        this.parameters = List.of(parameters);
    }

    /** The SQL for {@code dsl}'s dialect, rendered with its settings on first use. */
    String sql(DSLContext dsl) {
        return rendered.computeIfAbsent(dsl.dialect(), dialect -> render(dsl));
    }

    private String render(DSLContext dsl) {
        Query query = definition.get();
        List<String> named = new ArrayList<>();
        query.getParams().forEach((name, param) -> {
            if (!param.isInline()) {
                named.add(name);
            }
        });
        String sql = dsl.render(query);
        if (!named.equals(parameters) || query.getBindValues().size() != parameters.size()) {
            throw new IllegalStateException("Query parameters " + named + " do not match the declared " + parameters + ": " + sql);
        }
        return sql;
    }
}
