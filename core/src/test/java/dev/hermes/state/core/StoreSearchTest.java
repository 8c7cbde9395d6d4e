package dev.hermes.state.core;

import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

import javax.sql.DataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * search_messages through the store (the search itself is tested in the search package): on the
 * Python agent's version-6 file as it is, read-only, and on an adopted version-2 file; from several
 * threads at once, and on an application's pooled connections. The search's statements are kept
 * prepared on each read connection, which serves one thread at a time.
 */
class StoreSearchTest {
    private static final List<SearchQuery> QUERIES = List.of(SearchQuery.of("word1"), SearchQuery.of("word2 OR word3"),
            SearchQuery.builder("word4").sourceFilter(List.of("cli")).build(),
            SearchQuery.builder("word5").roleFilter(List.of("user")).limit(5).offset(2).build(),
            SearchQuery.builder("word6").excludeSources(List.of("telegram")).build(),
            SearchQuery.of("迁移"), SearchQuery.builder("迁移").sourceFilter(List.of("telegram")).limit(7).build(),
            SearchQuery.of("nothing-here"));

    @TempDir
    Path dir;

    @Test
    void searchesTheAgentsFiles() {
        try (StateRepository v6 = StateRepository.openReadOnly(Fixtures.copy("state-v6.db", dir));
             StateRepository v2 = StateRepository.open(Fixtures.copy("state-v2.db", dir))) {
            for (StateRepository store : List.of(v6, v2)) {
                assertEquals(List.of(30L, 31L, 79L, 80L), ids(store, SearchQuery.builder("docker").limit(50).build()));
                assertEquals(List.of(2L, 8L, 9L, 10L, 11L, 12L, 13L, 96L), ids(store, SearchQuery.builder("\"database migration\"").limit(50).build()));
                assertEquals(List.of(55L), ids(store, SearchQuery.of("ENDMARKER_7f3a")));
                assertEquals(List.of(49L, 50L), ids(store, SearchQuery.of("C++")));
                assertEquals(List.of(42L, 46L), ids(store, SearchQuery.of("chat-send")));
                assertEquals(List.of(), ids(store, SearchQuery.of("   ")));
                assertEquals(List.of(), ids(store, SearchQuery.builder("docker").sourceFilter(List.of()).build()));
                assertEquals(List.of(30L, 31L), ids(store, SearchQuery.builder("docker").sourceFilter(List.of("cli")).build()));
            }
            List<SearchHit> hits = v6.searchMessages(SearchQuery.of("ENDMARKER_7f3a"));
            assertEquals("20260312_091723_9a58a3", hits.get(0).sessionId());
            assertEquals("slack", hits.get(0).source());
        }
    }

    @Test
    void threadsSearchingAtOnceFindWhatALoneSearchFinds() throws Exception {
        try (StateRepository store = StateRepository.builder().path(TestStores.newDatabase(dir)).readerPoolSize(2).build()) {
            Map<SearchQuery, List<Long>> expected = corpus(store);
            assertEverySearchRight(store, expected, 4, 100);
        }
    }

    /**
     * The caller's limit is honoured however large: with 1,500 matches (more than any page size a
     * store might cap at) a larger limit returns every one, each with its own context; offsets page
     * through them; the CJK fallback does the same, newest first.
     */
    @Test
    void aLimitAboveTheNumberOfMatchesReturnsEveryHit() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.createSession("a", "cli");
            store.createSession("b", "telegram");
            Map<Long, String> deployments = new LinkedHashMap<>();
            Map<Long, String> migrations = new LinkedHashMap<>();
            for (String session : List.of("a", "b")) {
                List<NewMessage> batch = new ArrayList<>();
                for (int i = 0; i < 1500; i++) {
                    batch.add(NewMessage.of("user", i % 2 == 0 ? "deployment " + session + i : "数据库迁移问题" + session + i));
                }
                List<Long> ids = store.appendMessages(session, batch);
                for (int i = 0; i < ids.size(); i++) {
                    (i % 2 == 0 ? deployments : migrations).put(ids.get(i), batch.get(i).text());
                }
            }
            List<Long> allDeployments = List.copyOf(deployments.keySet());
            for (int limit : List.of(1500, 100_000, Integer.MAX_VALUE)) {
                List<SearchHit> hits = store.searchMessages(SearchQuery.builder("deploy*").limit(limit).build());
                assertEquals(allDeployments, hits.stream().map(SearchHit::id).sorted().toList(), "limit " + limit);
                for (SearchHit hit : hits) {
                    assertTrue(hit.context().contains(new SearchHit.ContextMessage("user", deployments.get(hit.id()))),
                            "each hit has its own context: " + hit);
                }
            }
            List<Long> paged = new ArrayList<>();
            for (int offset = 0; offset < 1500; offset += 600) {
                paged.addAll(ids(store, SearchQuery.builder("deploy*").limit(600).offset(offset).build()));
            }
            assertEquals(allDeployments, paged.stream().sorted().toList(), "pages of 600 hold each hit once");
            assertEquals(300, ids(store, SearchQuery.builder("deploy*").limit(100_000).offset(1200).build()).size());
            assertEquals(750, ids(store, SearchQuery.builder("deploy*").sourceFilter(List.of("telegram")).limit(100_000).build()).size());

            List<Long> newestFirst = new ArrayList<>(migrations.keySet());
            java.util.Collections.reverse(newestFirst);
            List<SearchHit> cjk = store.searchMessages(SearchQuery.builder("迁移").limit(100_000).build());
            assertEquals(newestFirst, cjk.stream().map(SearchHit::id).toList());
            assertEquals(migrations.get(cjk.get(0).id()), cjk.get(0).snippet());
            assertEquals(newestFirst.subList(1000, 1500),
                    store.searchMessages(SearchQuery.builder("迁移").limit(5000).offset(1000).build()).stream().map(SearchHit::id).toList());
        }
    }

    /**
     * A pool lends proxies of its connections (as HikariCP does); the store keeps the ones it takes and
     * prepares each search statement once per connection, not once per search.
     */
    @Test
    void searchesOnAnApplicationsPooledConnectionsPrepareEachStatementOncePerConnection() throws Exception {
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + TestStores.newDatabase(dir));
        Map<String, Integer> prepared = new ConcurrentHashMap<>();
        try (StateRepository store = StateRepository.builder().dataSource(countingPool(sqlite, prepared))
                .readerPoolSize(2).build()) {
            Map<SearchQuery, List<Long>> expected = corpus(store);
            assertEverySearchRight(store, expected, 4, 100);
        }
        List<Integer> searchPrepares = prepared.entrySet().stream()
                .filter(statement -> statement.getKey().contains("snippet")).map(Map.Entry::getValue).toList();
        assertEquals(6, searchPrepares.size(), "shapes: FTS5 plain, by source, by role, excluding; LIKE plain, by source");
        assertTrue(searchPrepares.stream().allMatch(count -> count <= 2), "at most once per read connection: " + searchPrepares);
    }

    /** Two sessions, 200 messages; the ids each query finds when searched alone. */
    private static Map<SearchQuery, List<Long>> corpus(StateRepository store) {
        store.createSession("a", "cli");
        store.createSession("b", "telegram");
        for (int i = 0; i < 200; i++) {
            store.appendMessage(i % 2 == 0 ? "a" : "b", NewMessage.of(i % 3 == 0 ? "user" : "assistant",
                    "word" + (i % 7) + " item" + i + " 数据" + (i % 5) + "迁移"));
        }
        Map<SearchQuery, List<Long>> expected = new LinkedHashMap<>();
        for (SearchQuery query : QUERIES) {
            expected.put(query, store.searchMessages(query).stream().map(SearchHit::id).toList());
        }
        assertEquals(20, expected.get(SearchQuery.of("word1")).size(), "29 messages hold word1, a page is 20");
        assertEquals(20, expected.get(SearchQuery.of("迁移")).size());
        assertEquals(7, expected.get(QUERIES.get(6)).size());
        assertEquals(List.of(), expected.get(SearchQuery.of("nothing-here")));
        return expected;
    }

    private static void assertEverySearchRight(StateRepository store, Map<SearchQuery, List<Long>> expected,
                                               int threads, int rounds) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        SearchQuery query = QUERIES.get((i + offset) % QUERIES.size());
                        assertEquals(expected.get(query), store.searchMessages(query).stream().map(SearchHit::id).toList(),
                                query.toString());
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

    /** An application's pool as the store sees it: a new proxy of a new connection on each loan; prepares counted by SQL. */
    private static DataSource countingPool(SQLiteDataSource sqlite, Map<String, Integer> prepared) {
        return proxy(DataSource.class, (pool, method, args) -> {
            Object result = invoke(sqlite, method, args);
            if (!method.getName().equals("getConnection")) {
                return result;
            }
            Connection physical = (Connection) result;
            return proxy(Connection.class, (connection, call, callArgs) -> {
                if (call.getName().equals("prepareStatement")) {
                    prepared.merge((String) callArgs[0], 1, Integer::sum);
                }
                return invoke(physical, call, callArgs);
            });
        });
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(StoreSearchTest.class.getClassLoader(), new Class<?>[]{type}, handler));
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static List<Long> ids(StateRepository store, SearchQuery query) {
        return store.searchMessages(query).stream().map(SearchHit::id).sorted().toList();
    }
}
