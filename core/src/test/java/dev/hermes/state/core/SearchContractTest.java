package dev.hermes.state.core;

import dev.hermes.state.ErrorType;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/behaviour.md#search: search_messages through the store on small databases built for one
 * behaviour each, the same assertions on both engines (FTS5 on SQLite, tsvector and the CJK grams
 * index on PostgreSQL). Rows are written with plain SQL for exact timestamps. What only one engine
 * shows (FTS5's snippet format, its failures) is in {@code backend.sqlite.MessageSearchTest}.
 */
class SearchContractTest extends FreshStoreTest {
    private Connection connection;
    private PlainSqlWriter writer;

    @BeforeEach
    void openWriter() throws SQLException {
        connection = plainConnection();
        writer = new PlainSqlWriter(connection);
    }

    @AfterEach
    void closeWriter() throws SQLException {
        if (writer != null) {
            writer.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    private List<SearchHit> search(SearchQuery query) {
        return store.searchMessages(query);
    }

    private List<Long> ids(SearchQuery query) {
        return search(query).stream().map(SearchHit::id).toList();
    }

    private List<Long> sortedIds(SearchQuery query) {
        return search(query).stream().map(SearchHit::id).sorted().toList();
    }

    // ------------------------------------------------------------------ context

    @Test
    void contextComesFromTheHitsOwnSessionWhenSessionsInterleave() throws SQLException {
        writer.session("a", "cli", 1000);
        writer.session("b", "telegram", 1000.5);
        long a1 = writer.message("a", "user", "alpha one", 1010);
        long b1 = writer.message("b", "user", "alpha two", 1011);
        long a2 = writer.message("a", "assistant", "bravo three", 1012);
        long b2 = writer.message("b", "assistant", "bravo four", 1013);
        long a3 = writer.message("a", "user", "charlie five", 1014);
        long b3 = writer.message("b", "user", "charlie six", 1015);

        List<SearchHit> hits = search(SearchQuery.of("bravo"));
        assertEquals(List.of(a2, b2), hits.stream().map(SearchHit::id).sorted().toList());
        SearchHit inA = hits.stream().filter(hit -> hit.id() == a2).findFirst().orElseThrow();
        SearchHit inB = hits.stream().filter(hit -> hit.id() == b2).findFirst().orElseThrow();
        assertEquals(List.of(new ContextMessage("user", "alpha one"), new ContextMessage("assistant", "bravo three"),
                new ContextMessage("user", "charlie five")), inA.context());
        assertEquals(List.of(new ContextMessage("user", "alpha two"), new ContextMessage("assistant", "bravo four"),
                new ContextMessage("user", "charlie six")), inB.context());

        // first and last message of a session have one neighbour only
        SearchHit first = search(SearchQuery.builder("alpha").sourceFilter(List.of("cli")).build()).get(0);
        assertEquals(a1, first.id());
        assertEquals(List.of(new ContextMessage("user", "alpha one"), new ContextMessage("assistant", "bravo three")),
                first.context());
        SearchHit last = search(SearchQuery.builder("charlie").sourceFilter(List.of("telegram")).build()).get(0);
        assertEquals(b3, last.id());
        assertEquals(List.of(new ContextMessage("assistant", "bravo four"), new ContextMessage("user", "charlie six")),
                last.context());
        assertEquals(List.of(b1), ids(SearchQuery.builder("two").build()));
        assertEquals(List.of(a3), ids(SearchQuery.builder("five").build()));
    }

    @Test
    void equalTimestampsAreOrderedById() throws SQLException {
        writer.session("s", "cli", 1000);
        writer.session("other", "cli", 1000);
        writer.message("s", "user", "later but inserted before", 1021);
        writer.message("s", "user", "tie first", 1020);
        writer.message("other", "user", "same time in another session", 1020);
        long second = writer.message("s", "assistant", "tie second", 1020);
        writer.message("other", "user", "again another session", 1020);
        writer.message("s", "user", "tie third", 1020);
        writer.message("s", "user", "earlier but inserted last", 1019);

        SearchHit hit = search(SearchQuery.of("second")).get(0);
        assertEquals(second, hit.id());
        assertEquals(List.of(new ContextMessage("user", "tie first"), new ContextMessage("assistant", "tie second"),
                new ContextMessage("user", "tie third")), hit.context());
        // at the edges of a run of equal timestamps, the neighbour is at the earlier / later timestamp
        assertEquals(List.of(new ContextMessage("user", "earlier but inserted last"), new ContextMessage("user", "tie first"),
                new ContextMessage("assistant", "tie second")), search(SearchQuery.of("first")).get(0).context());
        assertEquals(List.of(new ContextMessage("assistant", "tie second"), new ContextMessage("user", "tie third"),
                new ContextMessage("user", "later but inserted before")), search(SearchQuery.of("third")).get(0).context());
        SearchHit earliest = search(SearchQuery.of("earlier")).get(0);
        assertEquals(List.of(new ContextMessage("user", "earlier but inserted last"), new ContextMessage("user", "tie first")),
                earliest.context());
        SearchHit latest = search(SearchQuery.of("later")).get(0);
        assertEquals(List.of(new ContextMessage("user", "tie third"), new ContextMessage("user", "later but inserted before")),
                latest.context());
    }

    @Test
    void contextIsCutTo200CodePoints() throws SQLException {
        writer.session("s", "cli", 1000);
        String before = "x".repeat(500);
        String hitContent = "needle " + "😀".repeat(300);
        String after = "数".repeat(250);
        writer.message("s", "user", before, 1001);
        writer.message("s", "assistant", hitContent, 1002);
        writer.message("s", "user", after, 1003);

        List<ContextMessage> context = search(SearchQuery.of("needle")).get(0).context();
        assertEquals("x".repeat(200), context.get(0).content());
        assertEquals("needle " + "😀".repeat(193), context.get(1).content());
        assertEquals(200, context.get(1).content().codePointCount(0, context.get(1).content().length()));
        assertEquals("数".repeat(200), context.get(2).content());
    }

    // ------------------------------------------------------------------ hit fields and snippet

    @Test
    void hitCarriesMessageAndSessionFields() throws SQLException {
        writer.session("s", "slack", 1_700_000_000.123456);
        writer.message("s", "user", "run the tool", 1_700_000_001.5);
        long tool = writer.message("s", "tool", "tool output with gizmo", "terminal", 1_700_000_002.000001);

        SearchHit hit = search(SearchQuery.of("gizmo")).get(0);
        assertEquals(tool, hit.id());
        assertEquals("s", hit.sessionId());
        assertEquals("tool", hit.role());
        assertEquals("tool output with >>>gizmo<<<", hit.snippet());
        assertEquals(java.time.Instant.parse("2023-11-14T22:13:22.000001Z"), hit.timestamp());
        assertEquals("terminal", hit.toolName());
        assertEquals("slack", hit.source());
        assertEquals("test/model", hit.model());
        assertEquals(java.time.Instant.parse("2023-11-14T22:13:20.123456Z"), hit.sessionStarted());
    }

    // ------------------------------------------------------------------ filters

    private void threeSources() throws SQLException {
        writer.session("c", "cli", 1000);
        writer.session("t", "telegram", 1001);
        writer.session("d", "discord", 1002);
        writer.message("c", "user", "shared word from cli", 1010);         // 1
        writer.message("c", "assistant", "shared word answer cli", 1011);  // 2
        writer.message("t", "user", "shared word from telegram", 1012);    // 3
        writer.message("d", "tool", "shared word tool discord", 1013);     // 4
    }

    @Test
    void sourceFilter() throws SQLException {
        threeSources();
        assertEquals(List.of(1L, 2L, 3L, 4L), sortedIds(SearchQuery.of("shared")));
        assertEquals(List.of(1L, 2L), sortedIds(SearchQuery.builder("shared").sourceFilter(List.of("cli")).build()));
        assertEquals(List.of(1L, 2L, 4L), sortedIds(SearchQuery.builder("shared").sourceFilter(List.of("cli", "discord")).build()));
        assertEquals(List.of(), sortedIds(SearchQuery.builder("shared").sourceFilter(List.of()).build()));
        assertEquals(List.of(), sortedIds(SearchQuery.builder("shared").sourceFilter(List.of("slack")).build()));
    }

    @Test
    void excludeSources() throws SQLException {
        threeSources();
        assertEquals(List.of(3L, 4L), sortedIds(SearchQuery.builder("shared").excludeSources(List.of("cli")).build()));
        assertEquals(List.of(4L), sortedIds(SearchQuery.builder("shared").excludeSources(List.of("cli", "telegram")).build()));
        assertEquals(List.of(1L, 2L, 3L, 4L), sortedIds(SearchQuery.builder("shared").excludeSources(List.of()).build()));
        assertEquals(List.of(1L, 2L),
                sortedIds(SearchQuery.builder("shared").sourceFilter(List.of("cli", "telegram")).excludeSources(List.of("telegram")).build()));
    }

    @Test
    void roleFilter() throws SQLException {
        threeSources();
        assertEquals(List.of(1L, 3L), sortedIds(SearchQuery.builder("shared").roleFilter(List.of("user")).build()));
        assertEquals(List.of(2L, 4L), sortedIds(SearchQuery.builder("shared").roleFilter(List.of("assistant", "tool")).build()));
        assertEquals(List.of(1L, 2L, 3L, 4L), sortedIds(SearchQuery.builder("shared").roleFilter(List.of()).build()));
        assertEquals(List.of(3L),
                sortedIds(SearchQuery.builder("shared").roleFilter(List.of("user")).excludeSources(List.of("cli")).build()));
    }

    /** Every filter and paging value at once binds each value to its own place, for FTS5 and for LIKE. */
    @Test
    void allFiltersTogether() throws SQLException {
        writer.session("c", "cli", 1000);
        writer.session("t", "telegram", 1000);
        writer.session("d", "discord", 1000);
        writer.session("s", "slack", 1000);
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String session = List.of("c", "t", "d", "s").get(i % 4);
            String role = i % 3 == 0 ? "user" : "assistant";
            // longer and longer: bm25 ranks the earlier messages first
            long id = writer.message(session, role, "shared 迁移项目" + " pad".repeat(i), 1001 + i);
            if (!session.equals("s") && !session.equals("d") && role.equals("user")) {
                expected.add(id);
            }
        }
        // cli and telegram users: by rank (oldest first here) for FTS5, newest first for the fallback
        assertEquals(7, expected.size());
        SearchQuery.Builder fts = SearchQuery.builder("shared").sourceFilter(List.of("cli", "telegram", "slack"))
                .excludeSources(List.of("slack", "whatsapp")).roleFilter(List.of("user", "system")).limit(3).offset(2);
        assertEquals(expected.subList(2, 5), ids(fts.build()));
        SearchQuery.Builder like = SearchQuery.builder("迁移").sourceFilter(List.of("cli", "telegram", "slack"))
                .excludeSources(List.of("slack", "whatsapp")).roleFilter(List.of("user", "system")).limit(3).offset(2);
        List<Long> newestFirst = new ArrayList<>(expected);
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst.subList(2, 5), ids(like.build()));
    }

    // ------------------------------------------------------------------ ranking and paging

    /** bm25 prefers the shorter of documents with one occurrence each: ids 5, 4, 3, 2, 1 by rank. */
    private void fiveRankedMessages() throws SQLException {
        writer.session("s", "cli", 1000);
        for (int filler = 4; filler >= 0; filler--) {
            writer.message("s", "user", "echo" + " filler".repeat(filler), 1001 + (4 - filler));
        }
    }

    @Test
    void orderedByRank() throws SQLException {
        fiveRankedMessages();
        assertEquals(List.of(5L, 4L, 3L, 2L, 1L), ids(SearchQuery.of("echo")));
    }

    @Test
    void limitAndOffset() throws SQLException {
        fiveRankedMessages();
        assertEquals(List.of(5L, 4L), ids(SearchQuery.builder("echo").limit(2).build()));
        assertEquals(List.of(3L, 2L), ids(SearchQuery.builder("echo").limit(2).offset(2).build()));
        assertEquals(List.of(1L), ids(SearchQuery.builder("echo").limit(2).offset(4).build()));
        assertEquals(List.of(), ids(SearchQuery.builder("echo").limit(2).offset(5).build()));
        assertEquals(List.of(), ids(SearchQuery.builder("echo").limit(0).build()));
    }

    @Test
    void badPagingIsAnInvalidArgument() {
        InvalidArgumentException limit = assertThrows(InvalidArgumentException.class,
                () -> SearchQuery.builder("x").limit(-1).build());
        assertEquals("Search limit must not be negative, got -1", limit.getMessage());
        InvalidArgumentException offset = assertThrows(InvalidArgumentException.class,
                () -> SearchQuery.builder("x").offset(-5).build());
        assertEquals("Search offset must not be negative, got -5", offset.getMessage());
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        InvalidArgumentException nullSource = assertThrows(InvalidArgumentException.class,
                () -> SearchQuery.builder("x").sourceFilter(withNull).build());
        assertEquals("sourceFilter must not contain null, got [null]", nullSource.getMessage());
        assertEquals(ErrorType.INVALID_ARGUMENT, nullSource.type());
    }

    @Test
    void anyLimitIsHonoured() throws SQLException {
        assertEquals(Integer.MAX_VALUE, SearchQuery.builder("x").limit(Integer.MAX_VALUE).build().limit());
        assertEquals(20, SearchQuery.of("x").limit());
        connection.setAutoCommit(false);
        writer.session("s", "cli", 1000);
        List<Long> written = new ArrayList<>();
        for (int i = 0; i < 1205; i++) {
            written.add(writer.message("s", "user", "many " + i + " 多次迁移" + i, 1001 + i));
        }
        connection.commit();
        connection.setAutoCommit(true);
        // more matches than any former cap: every one comes back, once, whatever limit above their number
        for (int limit : List.of(1205, 5000, Integer.MAX_VALUE)) {
            assertEquals(written, sortedIds(SearchQuery.builder("many").limit(limit).build()), "limit " + limit);
        }
        assertEquals(1204, ids(SearchQuery.builder("many").limit(1204).build()).size());
        assertEquals(5, ids(SearchQuery.builder("many").limit(Integer.MAX_VALUE).offset(1200).build()).size());
        // the CJK fallback pages the same way, newest first
        List<Long> newestFirst = new ArrayList<>(written);
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, ids(SearchQuery.builder("迁移").limit(Integer.MAX_VALUE).build()));
        assertEquals(newestFirst.subList(1000, 1205), ids(SearchQuery.builder("迁移").limit(5000).offset(1000).build()));
    }

    // ------------------------------------------------------------------ queries Hermes fails on

    @Test
    void improvementQueriesFindTheirMessages() throws SQLException {
        writer.session("s", "cli", 1000);
        long mail = writer.message("s", "user", "mail me at foo@bar.com today", 1001);
        long cpp = writer.message("s", "user", "I love C++ templates", 1002);
        long whats = writer.message("s", "user", "what's new in the release", 1003);
        long verbose = writer.message("s", "user", "run ls -v now", 1004);
        long ratio = writer.message("s", "user", "the ratio a:b is fine", 1005);
        long issue = writer.message("s", "user", "see issue #438 for details", 1006);
        long version = writer.message("s", "user", "version 1.2.3 released", 1007);
        long file = writer.message("s", "user", "edit my-app.config.ts please", 1008);
        long unrelated = writer.message("s", "user", "bar com foo are words too", 1009);

        assertEquals(List.of(mail), ids(SearchQuery.of("foo@bar.com")));
        assertEquals(List.of(cpp), ids(SearchQuery.of("C++")));
        assertEquals(List.of(whats), ids(SearchQuery.of("what's")));
        assertEquals(List.of(verbose), ids(SearchQuery.of("-v")));
        assertEquals(List.of(ratio), ids(SearchQuery.of("a:b")));
        assertEquals(List.of(issue), ids(SearchQuery.of("#438")));
        assertEquals(List.of(version), ids(SearchQuery.of("1.2.3")));
        assertEquals(List.of(file), ids(SearchQuery.of("my-app.config.ts")));
        assertEquals(List.of(mail), ids(SearchQuery.of("foo@bar.com AND OR today")));
        assertEquals(List.of(cpp), ids(SearchQuery.of("(C++ templates")));
        assertEquals(List.of(issue), ids(SearchQuery.of("\"issue #438")));
        assertEquals(List.of(mail, unrelated), sortedIds(SearchQuery.of("foo bar com")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\u3000", "\u00a0", "\"\"", "\"\u3000\"", "$", "%", "/", "'", ",", ";", "=", "[", "]",
            "@", "AND", "NOT", "AND OR NOT", "*", "🚀", "( )", "\u0000"})
    void queriesThatCanMatchNothingFindNothing(String query) throws SQLException {
        writer.session("s", "cli", 1000);
        writer.message("s", "user", "AND OR NOT $ % / ' , ; = [ ] @ * 🚀 ( ) and everything else", 1001);
        writer.message("s", "user", "数据库\u3000迁移", 1002);
        assertEquals(List.of(), ids(SearchQuery.of(query)));
    }

    @Test
    void nullQueryFindsNothing() {
        assertEquals(List.of(), ids(SearchQuery.of(null)));
    }

    // ------------------------------------------------------------------ CJK fallback

    @Test
    void chineseSubstringFallsBackToLike() throws SQLException {
        writer.session("zh", "telegram", 1000);
        long first = writer.message("zh", "user", "我们讨论数据库迁移问题", 1001);
        long second = writer.message("zh", "assistant", "迁移计划已经准备好", 1002);
        writer.message("zh", "user", "没有关系的句子", 1003);

        // FTS5 sees 我们讨论数据库迁移问题 as one token: 迁移 only matches through LIKE, newest first
        List<SearchHit> hits = search(SearchQuery.of("迁移"));
        assertEquals(List.of(second, first), hits.stream().map(SearchHit::id).toList());
        assertEquals("迁移计划已经准备好", hits.get(0).snippet());
        assertEquals(List.of(new ContextMessage("user", "我们讨论数据库迁移问题"), new ContextMessage("assistant", "迁移计划已经准备好"),
                new ContextMessage("user", "没有关系的句子")), hits.get(0).context());
        assertEquals(List.of(second, first), ids(SearchQuery.of("\"迁移\"")));
        // a whole token is found by FTS5 itself
        assertEquals(List.of(second), ids(SearchQuery.of("迁移计划已经准备好")));
    }

    @Test
    void japaneseAndKoreanFallBackToLike() throws SQLException {
        writer.session("ja", "discord", 1000);
        writer.session("ko", "slack", 1000);
        long japanese = writer.message("ja", "user", "データベースの移行について質問があります", 1001);
        long korean = writer.message("ko", "user", "데이터베이스백업방법을 알려주세요", 1002);
        assertEquals(List.of(japanese), ids(SearchQuery.of("移行")));
        assertEquals(List.of(korean), ids(SearchQuery.of("백업")));
        // the fallback searches the text as written: operators mean nothing to LIKE (as in Hermes)
        assertEquals(List.of(), ids(SearchQuery.of("データ OR 데이터")));
    }

    @Test
    void fallbackKeepsTheFiltersAndPaging() throws SQLException {
        writer.session("a", "cli", 1000);
        writer.session("b", "telegram", 1000);
        long a1 = writer.message("a", "user", "甲迁移一", 1001);
        long b1 = writer.message("b", "assistant", "乙迁移二", 1002);
        long a2 = writer.message("a", "assistant", "丙迁移三", 1003);
        long b2 = writer.message("b", "user", "丁迁移四", 1004);
        assertEquals(List.of(b2, a2, b1, a1), ids(SearchQuery.of("迁移")));
        assertEquals(List.of(a2, a1), ids(SearchQuery.builder("迁移").sourceFilter(List.of("cli")).build()));
        assertEquals(List.of(), ids(SearchQuery.builder("迁移").sourceFilter(List.of()).build()));
        assertEquals(List.of(b2, b1), ids(SearchQuery.builder("迁移").excludeSources(List.of("cli")).build()));
        assertEquals(List.of(b2, a1), ids(SearchQuery.builder("迁移").roleFilter(List.of("user")).build()));
        assertEquals(List.of(a2, b1), ids(SearchQuery.builder("迁移").limit(2).offset(1).build()));
    }

    @Test
    void fallbackMatchesPercentUnderscoreAndBackslashLiterally() throws SQLException {
        writer.session("s", "cli", 1000);
        long percent = writer.message("s", "user", "进度 100%完成", 1001);
        writer.message("s", "user", "进度 1000完成", 1002);
        long underscore = writer.message("s", "user", "变量a_b值", 1003);
        writer.message("s", "user", "变量axb值", 1004);
        long backslash = writer.message("s", "user", "路径C:\\temp\\文件", 1005);
        writer.message("s", "user", "路径C:/temp/文件", 1006);

        assertEquals(List.of(percent), ids(SearchQuery.of("0%完")));
        assertEquals(List.of(underscore), ids(SearchQuery.of("a_b值")));
        assertEquals(List.of(backslash), ids(SearchQuery.of("径C:\\")));
    }

    @Test
    void fallbackSnippetStartsFortyCharactersBeforeTheMatch() throws SQLException {
        writer.session("s", "cli", 1000);
        long late = writer.message("s", "user", "一".repeat(60) + "迁移" + "二".repeat(100), 1001);
        long early = writer.message("s", "user", "三".repeat(10) + "迁移" + "四".repeat(200), 1002);
        long exactly40 = writer.message("s", "user", "五".repeat(40) + "迁移" + "六".repeat(200), 1003);
        long caseFolded = writer.message("s", "user", "七".repeat(50) + "数据ABC" + "八".repeat(200), 1004);

        assertEquals("一".repeat(40) + "迁移" + "二".repeat(78), snippetOf(late, "迁移"));
        assertEquals("三".repeat(10) + "迁移" + "四".repeat(108), snippetOf(early, "迁移"));
        assertEquals("五".repeat(40) + "迁移" + "六".repeat(78), snippetOf(exactly40, "迁移"));
        // LIKE ignores ASCII case but instr does not: Hermes then shows the first 120 characters
        assertEquals("七".repeat(50) + "数据ABC" + "八".repeat(65), snippetOf(caseFolded, "数据abc"));
    }

    private String snippetOf(long id, String query) {
        return search(SearchQuery.of(query)).stream()
                .filter(hit -> hit.id() == id).findFirst().orElseThrow().snippet();
    }

    @Test
    void noFallbackWhenFtsFindsSomething() throws SQLException {
        writer.session("s", "cli", 1000);
        long token = writer.message("s", "user", "迁移 is a whole token here", 1001);
        writer.message("s", "user", "数据库迁移问题", 1002);
        writer.message("s", "user", "迁移计划", 1003);
        assertEquals(List.of(token), ids(SearchQuery.of("迁移")));
        // paging past FTS5's only hit: an empty page, not the LIKE results at that offset (Hermes' quirk)
        assertEquals(List.of(), ids(SearchQuery.builder("迁移").offset(1).build()));
    }

    @Test
    void noFallbackForTextWithoutCjk() throws SQLException {
        writer.session("s", "cli", 1000);
        writer.message("s", "user", "somethingelse", 1001);
        assertEquals(List.of(), ids(SearchQuery.of("thing")));
    }
}
