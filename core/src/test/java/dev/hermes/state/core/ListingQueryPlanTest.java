package dev.hermes.state.core;

import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code hermes-state sessions list} costs on a big file (issue 25): the rich listing reads the page's
 * sessions through the started_at index and each row's preview and last activity through the messages'
 * (session_id, timestamp) index, so its cost does not grow with the file. Checked on SQLite's own plan of
 * every statement the listing runs (captured from the store's connections): no table of the store is
 * scanned without an index, and the page's order comes from idx_sessions_started.
 */
class ListingQueryPlanTest {
    /** A plan step that reads a whole table: "SCAN t" without "USING ... INDEX" (CTEs and subqueries aside). */
    private static final Pattern FULL_SCAN = Pattern.compile("^SCAN (\\w+)$");

    @TempDir
    Path dir;

    @Test
    void theDefaultListingReadsThroughIndexesOnly() throws Exception {
        Path file = dir.resolve("state.db");
        try (StateRepository store = StateRepository.open(file)) {
            for (int i = 0; i < 30; i++) {
                String id = String.format(Locale.ROOT, "s%02d", i);
                store.createSession(NewSession.builder(id, i % 2 == 0 ? "cli" : "telegram").build());
                store.appendMessage(id, NewMessage.of("user", "question " + i));
                store.appendMessage(id, NewMessage.of("assistant", "answer " + i));
            }
        }
        List<String> statements = new ArrayList<>();
        List<RichSession> rows;
        try (StateRepository store = StateRepository.builder().dataSource(recording(file, statements)).build()) {
            rows = store.listSessionsRich(ListSessionsQuery.builder().limit(20).build());
        }
        assertEquals(20, rows.size());
        assertEquals("s29", rows.get(0).session().id());
        assertEquals("question 29", rows.get(0).preview());

        List<String> listings = statements.stream()
                .filter(sql -> sql.startsWith("select") && sql.contains("from sessions"))
                .toList();
        assertEquals(1, listings.size(), () -> "one listing statement expected: " + statements);
        SQLiteDataSource plain = new SQLiteDataSource();
        plain.setUrl("jdbc:sqlite:" + file);
        try (Connection connection = plain.getConnection()) {
            List<String> plan = plan(connection, listings.get(0));
            List<String> fullScans = plan.stream().filter(step -> FULL_SCAN.matcher(step).matches()).toList();
            assertEquals(List.of(), fullScans, () -> "full scans in " + plan);
            assertTrue(plan.contains("SCAN sessions USING INDEX idx_sessions_started"), () -> plan.toString());
            assertTrue(plan.stream().filter(step -> step.contains("first_user_message") || step.contains("latest_message"))
                    .allMatch(step -> step.contains("USING INDEX idx_messages_session")
                            || step.contains("USING COVERING INDEX idx_messages_session")), () -> plan.toString());
        }
    }

    /** The plan's steps (EXPLAIN QUERY PLAN's detail column); unbound parameters plan as NULL. */
    private static List<String> plan(Connection connection, String sql) throws SQLException {
        List<String> steps = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                steps.add(rows.getString("detail"));
            }
        }
        return steps;
    }

    /** The application's DataSource on {@code file}, whose connections record every statement they prepare. */
    private static DataSource recording(Path file, List<String> statements) {
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + file);
        return (DataSource) Proxy.newProxyInstance(ListingQueryPlanTest.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, arguments) -> {
                    if (method.getName().equals("getConnection")) {
                        return recorded(sqlite.getConnection(), statements);
                    }
                    return invoke(sqlite, method, arguments);
                });
    }

    private static Connection recorded(Connection connection, List<String> statements) {
        return (Connection) Proxy.newProxyInstance(ListingQueryPlanTest.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, arguments) -> {
                    if (method.getName().equals("prepareStatement") && arguments != null && arguments[0] instanceof String sql) {
                        statements.add(sql);
                    }
                    return invoke(connection, method, arguments);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] arguments) throws Throwable {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
