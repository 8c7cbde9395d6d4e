package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.V17Rows.Session;
import dev.hermes.state.core.model.ActiveSession;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.core.model.SessionCwd;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Finding sessions by today's agent's rules (a store at schema 17), on both engines: the rich listing
 * (archived sessions, /branch children, subagent runs, the tip's workspace, the working-directory and
 * message-count filters, the order by last activity over compression chains, the id and search
 * queries), session_count, get_compression_tip, resolve_resume_session_id, search_sessions_by_id,
 * distinct_session_cwds and search_sessions. Every expected value is the agent's own answer (its v17
 * SessionDB, measured on a file it created, with these very rows written by the same statements). A row
 * shown as {@code tip<root} is a compression root projected onto its tip.
 */
class ListingV17ContractTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 17;
    }

    @BeforeEach
    void writeTheDataSet() throws SQLException {
        try (Connection connection = plainConnection(); V17Rows rows = new V17Rows(connection)) {
            for (Session session : List.of(
                    new Session("root-old", "cli", null, 1000, 1050.0, "cli_close", null, "Old root", null, null, null, false, 2),
                    new Session("root-new", "telegram", null, 2000, null, null, null, "Telegram chat", "/repo/a", null, null, false, 1),
                    new Session("archived-root", "cli", null, 2100, 2150.0, "compression", null, "Star catalogue cleanup", null, null, null, true, 1),
                    new Session("archived-tip", "cli", "archived-root", 2160, null, null, null, "Star catalogue cleanup #2", null, null, null, true, 1),
                    new Session("branch-parent", "cli", null, 3000, 3100.0, "branched", null, "AN-94 notes", "/repo/a/sub", null, null, false, 1),
                    new Session("branch-legacy", "cli", "branch-parent", 3110, null, null, null, null, null, null, null, false, 1),
                    new Session("branch-marked", "cli", "branch-parent", 3050, null, null, "{\"_branched_from\": \"branch-parent\"}", null, null, null, null, false, 0),
                    new Session("child-plain", "cli", "root-old", 1020, null, null, null, null, null, null, null, false, 0),
                    new Session("delegate", "cli", "root-old", 1030, 1040.0, "delegate_complete", "{\"_delegate_from\": \"root-old\"}", null, null, null, null, false, 0),
                    new Session("orphan", "slack", null, 4000, null, null, "{\"temperature\": 0.7, \"_delegate_from\": \"__orphaned__\"}", null, null, null, null, false, 0),
                    new Session("chain-1", "cli", null, 5000, 5100.0, "compression", null, "Chain", null, null, null, false, 1),
                    new Session("chain-2", "cli", "chain-1", 5090, 5200.0, "compression", null, "Chain #2", null, null, null, false, 1),
                    new Session("chain-2-stale", "cli", "chain-1", 5300, 5310.0, "ws_orphan_reap", null, null, null, null, null, false, 1),
                    new Session("chain-3", "cli", "chain-2", 5210, null, null, null, "Chain #3", "/repo/b", "main", "/repo/b", false, 2),
                    new Session("chain-3-tool", "tool", "chain-3", 5220, null, null, null, null, null, null, null, false, 0),
                    new Session("chain-3-delegate", "cli", "chain-3", 5230, null, null, "{\"_delegate_from\": \"chain-3\"}", null, null, null, null, false, 0),
                    new Session("cwd-win", "cli", null, 6000, null, null, null, null, "C:\\w\\x", null, null, false, 0),
                    new Session("cwd-case", "cli", null, 6100, null, null, null, null, "/Repo/A/x", null, null, false, 0),
                    new Session("cwd-ab", "cli", null, 6200, null, null, null, null, "/repo/ab", null, null, false, 0),
                    new Session("resume-head", "cli", null, 7000, 7005.0, "session_reset", null, null, null, null, null, false, 0),
                    new Session("resume-mid", "cli", "resume-head", 7010, null, null, null, null, null, null, null, false, 1),
                    new Session("resume-leaf", "cli", "resume-mid", 7020, null, null, null, null, null, null, null, false, 0))) {
                rows.session(session);
            }
            rows.message("root-old", "user", "How do I list sessions?", 1001);
            rows.message("root-old", "assistant", "With list_sessions_rich.", 9000);
            rows.message("root-new", "user",
                    "Line one\nline two of a telegram message that is certainly longer than sixty characters", 2001);
            rows.message("archived-root", "user", "Clean the star catalogue", 2101);
            rows.message("archived-tip", "user", "Continue the cleanup", 2161);
            rows.message("branch-parent", "user", "Notes on the AN-94", 3001);
            rows.message("branch-legacy", "user", "A branch of the notes", 3111);
            rows.message("chain-1", "user", "Start of the chain", 5001);
            rows.message("chain-2", "user", "Second part", 5150);
            rows.message("chain-2-stale", "user", "A stale sibling", 9500);
            rows.message("chain-3", "user", "The live tip", 5211);
            rows.message("chain-3", "assistant", "Latest reply", 8000);
            rows.message("resume-mid", "user", "Where the messages are", 7011);
        }
    }

    private List<String> list(ListSessionsQuery.Builder query) {
        return ids(store.listSessionsRich(query.build()));
    }

    private static List<String> ids(List<RichSession> rows) {
        return rows.stream().map(row -> row.session().id() + (row.lineageRootId() == null ? "" : "<" + row.lineageRootId()))
                .toList();
    }

    private static Instant at(double seconds) {
        return Instant.ofEpochMilli(Math.round(seconds * 1000));
    }

    // ------------------------------------------------------------------ list_sessions_rich

    @Test
    void theListingHidesArchivedSessionsSubagentRunsAndContinuationsAndListsBranchChildren() {
        assertEquals(List.of("resume-head", "cwd-ab", "cwd-case", "cwd-win", "chain-3<chain-1", "branch-legacy",
                "branch-marked", "branch-parent", "root-new", "root-old"), list(ListSessionsQuery.builder()));
        assertEquals(List.of("resume-head", "cwd-ab", "cwd-case", "cwd-win", "chain-3<chain-1", "branch-legacy",
                        "branch-marked", "branch-parent", "archived-tip<archived-root", "root-new", "root-old"),
                list(ListSessionsQuery.builder().includeArchived(true)));
        assertEquals(List.of("archived-tip<archived-root"), list(ListSessionsQuery.builder().archivedOnly(true)));
        assertEquals(List.of("resume-head", "cwd-ab", "cwd-case", "cwd-win", "chain-1", "branch-legacy", "branch-marked",
                "branch-parent", "root-new", "root-old"), list(ListSessionsQuery.builder().projectCompressionTips(false)));
    }

    @Test
    void withChildrenEverySessionIsListedUnprojected() {
        assertEquals(List.of("resume-leaf", "resume-mid", "resume-head", "cwd-ab", "cwd-case", "cwd-win", "chain-2-stale",
                        "chain-3-delegate", "chain-3-tool", "chain-3", "chain-2", "chain-1", "orphan", "branch-legacy",
                        "branch-marked", "branch-parent", "root-new", "delegate", "child-plain", "root-old"),
                list(ListSessionsQuery.builder().includeChildren(true).limit(100)));
    }

    @Test
    void aProjectedRowShowsTheTipsWorkspaceTitleCountersPreviewAndActivityWithTheRootsStart() {
        RichSession row = store.listSessionsRich(ListSessionsQuery.defaults()).stream()
                .filter(r -> r.session().id().equals("chain-3")).findFirst().orElseThrow();
        assertEquals("chain-1", row.lineageRootId());
        assertEquals("Chain #3", row.session().title());
        assertEquals(2, row.session().messageCount());
        assertEquals("The live tip", row.preview());
        assertEquals(at(8000), row.lastActive());
        assertEquals(new RichSession.Workspace("/repo/b", "main", "/repo/b"), row.workspace());
        assertEquals(at(5000), row.session().startedAt());
        assertNull(row.session().endReason());
    }

    @Test
    void previewsAndLastActivity() {
        List<String> shown = new ArrayList<>();
        for (RichSession row : store.listSessionsRich(ListSessionsQuery.builder().limit(100).build())) {
            shown.add(row.session().id() + "|" + row.preview() + "|" + row.lastActive().getEpochSecond());
        }
        assertEquals(List.of("resume-head||7000", "cwd-ab||6200", "cwd-case||6100", "cwd-win||6000",
                "chain-3|The live tip|8000", "branch-legacy|A branch of the notes|3111", "branch-marked||3050",
                "branch-parent|Notes on the AN-94|3001",
                "root-new|Line one line two of a telegram message that is certainly lo...|2001",
                "root-old|How do I list sessions?|9000"), shown);
    }

    @Test
    void theWorkingDirectoryFilterTakesTheFolderAndWhatIsBelowItWithEitherSeparator() {
        assertEquals(List.of("cwd-case", "branch-parent", "root-new"), list(ListSessionsQuery.builder().cwdPrefix("/repo/a/")));
        assertEquals(List.of("cwd-win"), list(ListSessionsQuery.builder().cwdPrefix("C:\\w")));
        // a continuation's directory does not list it: the filter applies to the listed rows
        assertEquals(List.of(), list(ListSessionsQuery.builder().cwdPrefix("/repo/b")));
    }

    @Test
    void messageCountAndSourceFilters() {
        assertEquals(List.of("root-old"), list(ListSessionsQuery.builder().minMessageCount(2)));
        assertEquals(List.of("root-new"), list(ListSessionsQuery.builder().excludeSources(List.of("cli"))));
    }

    @Test
    void byLastActivityTheChainsNewestMessageOrdersItsRow() {
        // chain-1's chain holds the stale sibling with the newest message of all (9500)
        assertEquals(List.of("chain-3<chain-1", "root-old", "resume-head", "cwd-ab", "cwd-case", "cwd-win",
                        "branch-legacy", "branch-marked", "branch-parent", "archived-tip<archived-root", "root-new"),
                list(ListSessionsQuery.builder().orderByLastActive(true).includeArchived(true)));
        assertEquals(List.of("resume-head", "cwd-ab", "cwd-case"),
                list(ListSessionsQuery.builder().orderByLastActive(true).limit(3).offset(2)));
    }

    @Test
    void idAndSearchQueriesMatchAnySessionOfTheChain() {
        ListSessionsQuery.Builder byActivity = ListSessionsQuery.builder().orderByLastActive(true);
        assertEquals(List.of("chain-3<chain-1"), list(byActivity.idQuery("CHAIN-2")));
        assertEquals(List.of(), list(ListSessionsQuery.builder().orderByLastActive(true).idQuery("_")));
        assertEquals(List.of("chain-3<chain-1"), list(ListSessionsQuery.builder().orderByLastActive(true).searchQuery("chain #3")));
        assertEquals(List.of("branch-parent"), list(ListSessionsQuery.builder().orderByLastActive(true).searchQuery("an94")));
        assertEquals(List.of("archived-tip<archived-root"), list(ListSessionsQuery.builder().orderByLastActive(true)
                .searchQuery("catalogue").includeArchived(true)));
    }

    @Test
    void anIdOrSearchQueryNeedsTheOrderByActivity() {
        assertThrows(InvalidArgumentException.class, () -> ListSessionsQuery.builder().idQuery("chain").build());
        assertThrows(InvalidArgumentException.class, () -> ListSessionsQuery.builder().searchQuery("x").build());
        // a blank one filters nothing, whatever the order
        assertEquals(list(ListSessionsQuery.builder()), list(ListSessionsQuery.builder().idQuery("  ").searchQuery("")));
    }

    @Test
    void keysetPagesWalkTheSameRowsAsOneListingInBothOrders() {
        for (boolean byActivity : List.of(false, true)) {
            ListSessionsQuery all = ListSessionsQuery.builder().orderByLastActive(byActivity).includeArchived(true)
                    .limit(100).build();
            ListSessionsQuery pages = ListSessionsQuery.builder().orderByLastActive(byActivity).includeArchived(true)
                    .limit(3).build();
            List<String> walked = new ArrayList<>();
            String cursor = null;
            do {
                Page<RichSession> page = store.listSessionsRichPage(pages, cursor);
                walked.addAll(ids(page.items()));
                cursor = page.nextCursor().orElse(null);
            } while (cursor != null);
            assertEquals(ids(store.listSessionsRich(all)), walked, "by activity: " + byActivity);
        }
    }

    // ------------------------------------------------------------------ session_count

    @Test
    void sessionCountLeavesArchivedSessionsOutAndMatchesTheListingWhenChildrenAreExcluded() {
        assertEquals(20, store.sessionCount());
        assertEquals(20, count(SessionCountQuery.builder()));
        assertEquals(22, count(SessionCountQuery.builder().includeArchived(true)));
        assertEquals(2, count(SessionCountQuery.builder().archivedOnly(true)));
        assertEquals(10, count(SessionCountQuery.builder().excludeChildren(true)));
        assertEquals(11, count(SessionCountQuery.builder().excludeChildren(true).includeArchived(true)));
        assertEquals(3, count(SessionCountQuery.builder().cwdPrefix("/repo/a")));
        assertEquals(9, count(SessionCountQuery.builder().minMessageCount(1)));
        assertEquals(3, count(SessionCountQuery.builder().excludeSources(List.of("cli"))));
        assertEquals(9, count(SessionCountQuery.builder().source("cli").excludeChildren(true)));
    }

    private long count(SessionCountQuery.Builder query) {
        return store.sessionCount(query.build());
    }

    // ------------------------------------------------------------------ lineage

    @Test
    void theTipFollowsRealContinuationsPreferringCompressedThenOpenOnes() {
        assertEquals("chain-3", store.getCompressionTip("chain-1")); // not the stale sibling with the newest message
        assertEquals("chain-3", store.getCompressionTip("chain-2"));
        assertEquals("chain-3", store.getCompressionTip("chain-3")); // its tool and subagent children are not continuations
        assertEquals("archived-tip", store.getCompressionTip("archived-root"));
        assertEquals("root-old", store.getCompressionTip("root-old"));
        assertEquals("branch-parent", store.getCompressionTip("branch-parent"));
        assertEquals("nope", store.getCompressionTip("nope"));
    }

    @Test
    void resumeGoesToTheLastSessionWithMessagesBelowTheTip() {
        assertEquals("chain-3", store.resolveResumeSessionId("chain-1"));
        assertEquals("chain-3", store.resolveResumeSessionId("chain-2"));
        assertEquals("archived-tip", store.resolveResumeSessionId("archived-root"));
        assertEquals("root-old", store.resolveResumeSessionId("root-old"));
        // the latest child without a /branch marker is followed, whatever its parent's end
        assertEquals("branch-legacy", store.resolveResumeSessionId("branch-parent"));
        assertEquals("resume-mid", store.resolveResumeSessionId("resume-head"));
        assertEquals("resume-mid", store.resolveResumeSessionId("resume-mid"));
        assertEquals("resume-leaf", store.resolveResumeSessionId("resume-leaf"));
        assertEquals("nope", store.resolveResumeSessionId("nope"));
    }

    // ------------------------------------------------------------------ id search, directories, search_sessions

    @Test
    void searchSessionsByIdRanksExactThenPrefixThenSubstringMatchesOfTheChain() {
        assertEquals(List.of("chain-3<chain-1"), ids(store.searchSessionsById("chain-1", 20, true)));
        assertEquals(List.of("chain-3<chain-1"), ids(store.searchSessionsById("chain", 20, true)));
        assertEquals(List.of("chain-3<chain-1"), ids(store.searchSessionsById("CHAIN-3", 20, true)));
        assertEquals(List.of("root-old", "root-new"), ids(store.searchSessionsById("root", 2, true)));
        assertEquals(List.of(), ids(store.searchSessionsById("archived", 20, false)));
        assertEquals(List.of("archived-tip<archived-root"), ids(store.searchSessionsById("archived", 20, true)));
        assertEquals(List.of(), ids(store.searchSessionsById("   ", 20, true)));
        assertEquals(List.of(), ids(store.searchSessionsById("chain", 0, true)));
    }

    @Test
    void distinctWorkingDirectoriesCountTheirSessionsByDirectory() {
        List<SessionCwd> expected = List.of(new SessionCwd("/Repo/A/x", 1, at(6100)), new SessionCwd("/repo/a", 1, at(2000)),
                new SessionCwd("/repo/a/sub", 1, at(3100)), new SessionCwd("/repo/ab", 1, at(6200)),
                new SessionCwd("/repo/b", 1, at(5210)), new SessionCwd("C:\\w\\x", 1, at(6000)));
        assertEquals(expected, store.distinctSessionCwds(false));
        assertEquals(expected, store.distinctSessionCwds(true));
    }

    @Test
    void searchSessionsOrdersByLastActivity() {
        List<String> shown = store.getSessionsByLastActive(new SearchSessionsQuery(null, 6, 0)).stream()
                .map(row -> row.session().id() + "|" + row.lastActive().getEpochSecond()).toList();
        assertEquals(List.of("chain-2-stale|9500", "root-old|9000", "chain-3|8000", "resume-leaf|7020",
                "resume-mid|7011", "resume-head|7000"), shown);
        assertEquals(List.of("resume-leaf", "resume-mid", "resume-head", "cwd-ab", "cwd-case"),
                store.searchSessions(new SearchSessionsQuery("cli", 5, 3)).stream().map(dev.hermes.state.core.model.Session::id).toList());
        assertEquals(store.searchSessions(new SearchSessionsQuery("cli", 5, 3)),
                store.getSessionsByLastActive(new SearchSessionsQuery("cli", 5, 3)).stream().map(ActiveSession::session).toList());
    }
}
