package dev.hermes.state.core.search;

import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The search keeps its prepared statements per connection: results stay right when threads share a
 * connection, when more connections take turns than the cache remembers, and through a pool's proxies
 * of query_only connections.
 */
class StatementCacheTest {
    private final MessageSearch search = MessageSearch.sqlite();

    @TempDir
    Path dir;
    private Path file;
    /** Query → the ids a lone search finds. */
    private final Map<SearchQuery, List<Long>> expected = new LinkedHashMap<>();

    @BeforeEach
    void corpus() throws SQLException {
        file = SearchDatabases.newDatabase(dir);
        try (Connection connection = SearchDatabases.open(file);
             SearchDatabases.Writer writer = new SearchDatabases.Writer(connection)) {
            connection.setAutoCommit(false);
            writer.session("a", "cli", 1000);
            writer.session("b", "telegram", 1000);
            for (int i = 0; i < 200; i++) {
                writer.message(i % 2 == 0 ? "a" : "b", i % 3 == 0 ? "user" : "assistant",
                        "word" + (i % 7) + " item" + i + " 数据" + (i % 5) + "迁移", 1001 + i);
            }
            connection.commit();
            DSLContext reader = SearchDatabases.dsl(connection);
            for (SearchQuery query : List.of(SearchQuery.of("word1"), SearchQuery.of("word2 OR word3"),
                    SearchQuery.builder("word4").sourceFilter(List.of("cli")).build(),
                    SearchQuery.builder("word5").roleFilter(List.of("user")).limit(5).offset(2).build(),
                    SearchQuery.builder("word6").excludeSources(List.of("telegram")).build(),
                    SearchQuery.of("迁移"), SearchQuery.builder("迁移").sourceFilter(List.of("telegram")).limit(7).build(),
                    SearchQuery.of("nothing-here"))) {
                expected.put(query, ids(reader, query));
            }
        }
        assertEquals(20, expected.get(SearchQuery.of("迁移")).size());
    }

    @Test
    void threadsSharingOneConnection() throws Exception {
        try (Connection connection = SearchDatabases.open(file)) {
            DSLContext reader = SearchDatabases.dsl(connection);
            assertEverySearchRight(4, 100, () -> reader);
        }
    }

    @Test
    void moreConnectionsThanTheCacheRemembers() throws SQLException {
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < StatementCache.MAX_CONNECTIONS + 8; i++) {
                connections.add(SearchDatabases.open(file));
            }
            for (int round = 0; round < 2; round++) {
                for (Connection connection : connections) {
                    expected.forEach((query, ids) -> assertEquals(ids, ids(SearchDatabases.dsl(connection), query), query.toString()));
                }
            }
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    /**
     * A pool lends a new proxy of the same physical connection each time (as HikariCP does, answering
     * unwrap with the connection behind): the statements are found again through unwrap, and nothing is
     * ever prepared on the proxies.
     */
    @Test
    void proxiesOfOneConnectionShareItsStatements() throws Exception {
        try (Connection physical = SearchDatabases.open(file)) {
            try (Statement pragma = physical.createStatement()) {
                pragma.execute("PRAGMA query_only = 1");
            }
            AtomicInteger preparedOnProxies = new AtomicInteger();
            assertEverySearchRight(4, 100, () -> SearchDatabases.dsl(loan(physical, preparedOnProxies)));
            assertEquals(0, preparedOnProxies.get());
        }
    }

    private static Connection loan(Connection physical, AtomicInteger preparedOnProxies) {
        return (Connection) Proxy.newProxyInstance(StatementCacheTest.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement")) {
                        preparedOnProxies.incrementAndGet();
                    }
                    try {
                        return method.invoke(physical, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void assertEverySearchRight(int threads, int rounds, java.util.function.Supplier<DSLContext> readers) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                futures.add(executor.submit(() -> {
                    List<SearchQuery> queries = new ArrayList<>(expected.keySet());
                    for (int i = 0; i < rounds; i++) {
                        SearchQuery query = queries.get((i + offset) % queries.size());
                        assertEquals(expected.get(query), ids(readers.get(), query), query.toString());
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private List<Long> ids(DSLContext reader, SearchQuery query) {
        return search.search(reader, query).stream().map(SearchHit::id).toList();
    }

    @Test
    void aStatementThatFailedIsPreparedAfreshForTheNextUse() throws SQLException {
        StatementCache cache = new StatementCache();
        String sql = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid";
        try (Connection connection = SearchDatabases.open(file)) {
            SQLException broken = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> cache.use(connection, sql, statement -> {
                        statement.setString(1, "word1 AND");
                        try (var rows = statement.executeQuery()) {
                            return rows.next();
                        }
                    }));
            org.junit.jupiter.api.Assertions.assertTrue(broken.getMessage().contains("syntax error"), broken.getMessage());
            long found = cache.use(connection, sql, statement -> {
                statement.setString(1, "word1");
                long count = 0;
                try (var rows = statement.executeQuery()) {
                    while (rows.next()) {
                        count++;
                    }
                }
                return count;
            });
            assertEquals(29, found, "200 messages, word(i % 7) = word1 for 29 of them");
        }
    }
}
