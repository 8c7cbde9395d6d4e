package dev.hermes.state.core;

import dev.hermes.state.core.V17Rows.Session;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchQuery.Order;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * search_messages by today's agent's rules (a store at schema 17), on both engines: hits by tool name
 * and tool-call arguments, rewound messages left out of the index searches (not compacted ones, and
 * not out of the short-CJK substring search), include_inactive, the newest/oldest orders, the routing
 * of CJK text (the trigram index for words of 3 or more CJK characters, with its operators; a substring
 * search of content, tool name and tool calls otherwise, one alternative per word), and the context,
 * whose structured content shows as its text. Expected values are the agent's own answers on the same
 * rows (its v17 SessionDB, on a file it created, rows written by the same statements). Hits ordered by
 * relevance are compared in the agent's order on SQLite and as a set on PostgreSQL, whose ranking is
 * its own; hits ordered by time are compared in order on both. Snippets are FTS5's: checked on SQLite.
 */
class SearchV17ContractTest extends FreshStoreTest {
    private static final String TOOL_CALLS = "[{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\":"
            + " \"orrery_lookup\", \"arguments\": \"{\\\"body\\\": \\\"encke\\\"}\"}}]";

    @Override
    int schemaVersion() {
        return 17;
    }

    @BeforeEach
    void writeTheDataSet() throws SQLException {
        // structured content as each engine stores it: SQLite's marker starts with NUL, PostgreSQL's with SOH
        String marker = onSqlite() ? "\u0000json:" : "\u0001json:";
        try (Connection connection = plainConnection(); V17Rows rows = new V17Rows(connection)) {
            rows.session(session("s-cli", "cli", 1000));
            rows.session(session("s-tg", "telegram", 1100));
            rows.session(session("s-tool", "tool", 1200));
            rows.session(session("s-cjk", "slack", 1300));
            rows.session(session("s-mm", "discord", 1400));
            rows.message("s-cli", "user", "How do I deploy with Docker?", null, null, 1001, true, false);
            rows.message("s-cli", "assistant", null, null, TOOL_CALLS, 1002, true, false);
            rows.message("s-cli", "tool", "{\"perihelion\": \"2027-02-08\"}", "orrery_lookup", null, 1003, true, false);
            rows.message("s-cli", "assistant", "Deployed the docker stack; perihelion noted.", null, null, 1004, true, false);
            rows.message("s-cli", "user", "Also check the magnetar flare", null, null, 1005, false, false);
            rows.message("s-cli", "assistant", "Magnetar flares are bursts", null, null, 1006, false, false);
            rows.message("s-tg", "user", "Log the meteorite samples", null, null, 1101, false, true);
            rows.message("s-tg", "assistant", "Logged 12 meteorite samples", null, null, 1102, false, true);
            rows.message("s-tg", "user", "[compacted summary] samples logged", null, null, 1103, true, false);
            rows.message("s-tool", "tool", "docker ps output", "terminal", null, 1201, true, false);
            rows.message("s-cjk", "user", "射电望远镜拍到的星图怎么保存？", null, null, 1301, true, false);
            rows.message("s-cjk", "assistant", "先把射电望远镜的原始数据导出为 FITS 文件，再生成星图。", null, null, 1302, true, false);
            rows.message("s-cjk", "user", "好的", null, null, 1303, true, false);
            rows.message("s-cjk", "user", "数据库迁移问题：星图", null, null, 1304, false, false);
            rows.message("s-cjk", "assistant", "100%完成 of the 数据库 task", null, null, 1305, true, false);
            rows.message("s-mm", "user", marker + "[{\"type\": \"text\", \"text\": \"Which nebula is this?\"}, {\"type\":"
                    + " \"image_url\", \"image_url\": {\"url\": \"data:image/png;base64,AAAA\"}}]", null, null, 1401, true, false);
            rows.message("s-mm", "assistant", "That is the Crab Nebula.", null, null, 1402, true, false);
            rows.message("s-mm", "user", marker + "[{\"type\": \"image_url\", \"image_url\": {\"url\":"
                    + " \"data:image/png;base64,BBBB\"}}]", null, null, 1403, true, false);
            rows.message("s-mm", "assistant", "Another nebula photo.", null, null, 1404, true, false);
            rows.message("s-tg", "user", "tie alpha", null, null, 1500, true, false);
            rows.message("s-tg", "assistant", "tie alpha", null, null, 1500, true, false);
            rows.message("s-cjk", "user", "同时发生", null, null, 1600, true, false);
            rows.message("s-cjk", "assistant", "同时完成", null, null, 1600, true, false);
        }
    }

    private static Session session(String id, String source, double startedAt) {
        return new Session(id, source, null, startedAt, null, null, null, null, null, null, null, false, 0);
    }

    private List<SearchHit> search(SearchQuery.Builder query) {
        return store.searchMessages(query.build());
    }

    private static SearchQuery.Builder query(String text) {
        return SearchQuery.builder(text);
    }

    private static List<Long> ids(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::id).toList();
    }

    /** Hits in the agent's order of relevance (SQLite: FTS5's rank; PostgreSQL ranks its own way: compared as a set). */
    private void assertByRelevance(List<Long> expected, SearchQuery.Builder query) {
        List<Long> actual = ids(search(query));
        if (onSqlite()) {
            assertEquals(expected, actual);
        } else {
            assertEquals(expected.stream().sorted().toList(), actual.stream().sorted().toList());
        }
    }

    /** Hits ordered by time: the same order on both engines. */
    private void assertInOrder(List<Long> expected, SearchQuery.Builder query) {
        assertEquals(expected, ids(search(query)));
    }

    @Test
    void toolNamesAndToolCallArgumentsAreSearchedToo() {
        assertByRelevance(List.of(10L, 1L, 4L), query("docker"));
        assertByRelevance(List.of(3L, 2L), query("orrery_lookup"));
        assertByRelevance(List.of(2L), query("encke"));
        if (onSqlite()) { // snippets are cut from what the index holds: content, tool name, tool calls
            List<SearchHit> hits = search(query("orrery_lookup"));
            assertEquals("{\"perihelion\": \"2027-02-08\"} >>>orrery_lookup<<< ", hits.get(0).snippet());
            assertEquals("  [{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \">>>orrery_lookup<<<\","
                    + " \"arguments\": \"{\\\"body\\\": \\\"encke\\\"}\"}}]", hits.get(1).snippet());
            assertEquals(">>>docker<<< ps output terminal ", search(query("docker")).get(0).snippet());
        }
    }

    @Test
    void rewoundMessagesAreLeftOutUnlessAskedForAndCompactedOnesAreFound() {
        assertInOrder(List.of(), query("magnetar"));
        assertByRelevance(List.of(6L, 5L), query("magnetar").includeInactive(true));
        assertByRelevance(List.of(7L, 8L), query("meteorite"));
    }

    @Test
    void newestAndOldestOrderByTimestampThenRelevance() {
        assertInOrder(List.of(10L, 4L, 1L), query("docker").order(Order.NEWEST));
        assertInOrder(List.of(1L, 4L, 10L), query("docker").order(Order.OLDEST));
        assertInOrder(List.of(20L, 21L), query("tie alpha").order(Order.NEWEST));
        assertInOrder(List.of(11L, 12L), query("射电望远镜").includeInactive(true).order(Order.OLDEST));
        assertEquals(Order.OLDEST, Order.ofHermes(" OLDEST "));
        assertEquals(Order.RELEVANCE, Order.ofHermes("random"));
        assertEquals(Order.RELEVANCE, Order.ofHermes(3));
        assertByRelevance(List.of(10L, 1L, 4L), query("docker").order(Order.ofHermes("random")));
    }

    @Test
    void filtersAndPagingOfTheIndexSearch() {
        assertInOrder(List.of(), query("docker").sourceFilter(List.of()));
        assertInOrder(List.of(1L), query("docker").excludeSources(List.of("tool")).roleFilter(List.of("tool", "user")));
        assertByRelevance(List.of(1L), query("deploy: docker")); // the colon separates, as the agent strips it
        if (onSqlite()) {
            assertInOrder(List.of(1L, 4L), query("docker").limit(2).offset(1));
        }
    }

    @Test
    void cjkWordsOfThreeOrMoreCharactersUseTheTrigramIndexWithItsOperators() {
        assertByRelevance(List.of(11L, 12L), query("射电望远镜"));
        assertByRelevance(List.of(11L, 12L), query("\"射电望远镜\""));
        assertByRelevance(List.of(11L, 15L, 12L), query("射电望远镜 OR 数据库"));
        assertInOrder(List.of(), query("射电望远镜").excludeSources(List.of("slack")));
        // "or" in lower case is a word the trigram index looks for, not an operator: nothing holds all three
        assertInOrder(List.of(), query("数据库 or 星图拍"));
        if (onSqlite()) {
            assertEquals(List.of(">>>射电望远镜<<<拍到的星图怎么保存？  ", "先把>>>射电望远镜<<<的原始数据导出为 FITS 文件，再生成星图。  "),
                    search(query("射电望远镜")).stream().map(SearchHit::snippet).toList());
        }
    }

    @Test
    void shortCjkWordsAreSubstringsOfContentToolNameOrToolCallsNewestFirstRewoundIncluded() {
        assertInOrder(List.of(14L, 12L, 11L), query("星图"));
        assertInOrder(List.of(12L), query("星图").roleFilter(List.of("assistant")));
        assertInOrder(List.of(), query("星图").sourceFilter(List.of("cli")));
        assertInOrder(List.of(14L, 13L, 12L, 11L), query("星图 OR 好的"));
        // one short word sends the whole query to the substring search, each word an alternative
        assertInOrder(List.of(15L, 14L), query("数据库 NOT 迁移"));
        // an expression FTS5 refuses (two operators in a row) goes there too
        assertInOrder(List.of(15L, 14L, 12L, 11L), query("射电望远镜 AND OR 数据库"));
        assertInOrder(List.of(15L), query("100%完成")); // % and _ are literal
        assertInOrder(List.of(22L, 23L), query("同时")); // the same timestamp: by id
        assertInOrder(List.of(), query("好的").limit(1).offset(1));
        List<SearchHit> hits = search(query("星图"));
        assertEquals(List.of("数据库迁移问题：星图", "先把射电望远镜的原始数据导出为 FITS 文件，再生成星图。", "射电望远镜拍到的星图怎么保存？"),
                hits.stream().map(SearchHit::snippet).toList());
        assertEquals(List.of(new ContextMessage("user", "好的"), new ContextMessage("user", "数据库迁移问题：星图"),
                new ContextMessage("assistant", "100%完成 of the 数据库 task")), hits.get(0).context());
    }

    @Test
    void structuredContentShowsAsItsTextInTheContext() {
        List<SearchHit> hits = search(query("nebula"));
        assertEquals(List.of(16L, 17L, 19L), ids(hits).stream().sorted().toList());
        SearchHit photo = hits.stream().filter(hit -> hit.id() == 16).findFirst().orElseThrow();
        SearchHit reply = hits.stream().filter(hit -> hit.id() == 17).findFirst().orElseThrow();
        SearchHit another = hits.stream().filter(hit -> hit.id() == 19).findFirst().orElseThrow();
        assertEquals(List.of(new ContextMessage("user", "Which nebula is this?"),
                new ContextMessage("assistant", "That is the Crab Nebula.")), photo.context());
        assertEquals(List.of(new ContextMessage("user", "Which nebula is this?"),
                new ContextMessage("assistant", "That is the Crab Nebula."),
                new ContextMessage("user", "[multimodal content]")), reply.context());
        assertEquals(List.of(new ContextMessage("user", "[multimodal content]"),
                new ContextMessage("assistant", "Another nebula photo.")), another.context());
        if (onSqlite()) {
            assertEquals(List.of(19L, 17L, 16L), ids(hits));
            assertEquals(">>>nebula<<< is this?\"}, {\"type\": \"image_url\", \"image_url\": {\"url\":"
                    + " \"data:image/png;base64,AAAA\"}}]  ", photo.snippet());
        }
    }
}
