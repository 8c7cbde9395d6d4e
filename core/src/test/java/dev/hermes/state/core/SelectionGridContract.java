package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SelectionOutcome;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.model.SessionSelection;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filter grid of issue 24 on today's agent's file (state-v17.db, 43 sessions): each filter alone
 * and several combined, for the listing, the selection, the export, prune and archive as dry runs,
 * against the ids a plain SQL query of the fixture written here selects; then a real prune (a
 * compression lineage removed as one unit, its messages and index rows gone). The store's clock is
 * fixed 0.1 s after 1796159101 (the fixture's rows were written within four seconds), so ages of
 * milliseconds cut through the rows. Subclasses give the engine.
 */
abstract class SelectionGridContract {
    /** The store's fixed clock, in epoch seconds. */
    static final double NOW = 1796159101.1;
    static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1796159101, 100_000_000), ZoneOffset.UTC);

    /**
     * The fixture's compression lineages (MANIFEST-v7-v17.md: the "my project" chain of four with the
     * root's delegate child, and the archived "Star catalogue" pair); every other session is alone.
     */
    static final List<Set<String>> LINEAGES = List.of(
            Set.of("20260310_090000_8520da", "20260310_090500_53bef4", "20260310_113000_6c0e5a",
                    "20260310_125900_7d739b", "20260310_135900_0957cb"),
            Set.of("20260402_080000_e4c1c4", "20260402_081500_e4c1c5"));

    private static final String LAST_ACTIVE = "COALESCE((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id), s.started_at)";

    @TempDir
    Path dir;
    /** The fixture's copy the expectations are read from (never changed by the store under test). */
    Path fixture;
    StateRepository store;

    /** The store under test holding the fixture's rows, with {@code clock}. */
    abstract StateRepository open(Path fixtureCopy, Clock clock) throws Exception;

    @BeforeEach
    final void openStore() throws Exception {
        fixture = Fixtures.copy("state-v17.db", folder("fixture"));
        store = open(fixture, CLOCK);
    }

    @AfterEach
    final void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /** One grid cell: a selection and the SQL condition on {@code sessions s} that selects the same rows. */
    record Cell(String name, SessionSelection selection, String sql) {
    }

    static List<Cell> grid() {
        List<Cell> alone = List.of(
                new Cell("older-than 500ms", b().olderThan(Duration.ofMillis(500)).build(), LAST_ACTIVE + " < " + (NOW - 0.5)),
                new Cell("newer-than 100ms", b().newerThan(Duration.ofMillis(100)).build(), LAST_ACTIVE + " >= " + (NOW - 0.1)),
                new Cell("before", b().startedBefore(at(1796159100.7)).build(), "s.started_at < 1796159100.7"),
                new Cell("after", b().startedAfter(at(1796159101.1)).build(), "s.started_at >= 1796159101.1"),
                new Cell("source", b().source("telegram").build(), "s.source = 'telegram'"),
                new Cell("title", b().titleContains("PROJECT").build(), "s.title LIKE '%project%'"),
                new Cell("title literal %", b().titleContains("100%").build(), "s.title = '100% done'"),
                new Cell("model", b().model("anthropic/claude-opus-4.6").build(), "s.model = 'anthropic/claude-opus-4.6'"),
                new Cell("provider", b().provider("openrouter").build(), "s.billing_provider = 'openrouter'"),
                new Cell("cwd", b().cwd("/home/astro/").build(), "(s.cwd = '/home/astro' OR s.cwd LIKE '/home/astro/%')"),
                new Cell("branch", b().gitBranch("feature/encke-orbit").build(), "s.git_branch = 'feature/encke-orbit'"),
                new Cell("end reason", b().endReason("session_reset").build(), "s.end_reason = 'session_reset'"),
                new Cell("min messages", b().minMessages(4L).build(), "s.message_count >= 4"),
                new Cell("max messages", b().maxMessages(2L).build(), "s.message_count <= 2"),
                new Cell("min tokens", b().minTokens(3000L).build(), "s.input_tokens + s.output_tokens >= 3000"),
                new Cell("max tokens", b().maxTokens(1000L).build(), "s.input_tokens + s.output_tokens <= 1000"),
                new Cell("min cost", b().minCost(0.02).build(), "COALESCE(s.actual_cost_usd, s.estimated_cost_usd) >= 0.02"),
                new Cell("max cost", b().maxCost(0.005).build(), "COALESCE(s.actual_cost_usd, s.estimated_cost_usd) <= 0.005"),
                new Cell("min tool calls", b().minToolCalls(1L).build(), "s.tool_call_count >= 1"),
                new Cell("max tool calls", b().maxToolCalls(0L).build(), "s.tool_call_count <= 0"),
                new Cell("include archived", b().includeArchived(true).build(), "1 = 1"));
        List<Cell> cells = new ArrayList<>(alone);
        cells.add(new Cell("source + min messages", b().source("cli").minMessages(3L).build(),
                "s.source = 'cli' AND s.message_count >= 3"));
        cells.add(new Cell("provider + max cost + newer-than", b().provider("anthropic").maxCost(0.02)
                .newerThan(Duration.ofMillis(700)).build(),
                "s.billing_provider = 'anthropic' AND COALESCE(s.actual_cost_usd, s.estimated_cost_usd) <= 0.02 AND "
                        + LAST_ACTIVE + " >= " + (NOW - 0.7)));
        cells.add(new Cell("before + after + model", b().startedAfter(at(1796159100.5)).startedBefore(at(1796159100.9))
                .model("openai/gpt-5.4").build(),
                "s.started_at >= 1796159100.5 AND s.started_at < 1796159100.9 AND s.model = 'openai/gpt-5.4'"));
        cells.add(new Cell("title + include archived", b().titleContains("star").includeArchived(true).build(),
                "s.title LIKE '%star%'"));
        cells.add(new Cell("end reason + tool calls + tokens", b().endReason("compression").minToolCalls(0L).maxToolCalls(1L)
                .minTokens(1000L).maxTokens(2000L).build(),
                "s.end_reason = 'compression' AND s.tool_call_count BETWEEN 0 AND 1"
                        + " AND s.input_tokens + s.output_tokens BETWEEN 1000 AND 2000"));
        cells.add(new Cell("older-than + source + max messages", b().olderThan(Duration.ofMillis(300)).source("cli")
                .maxMessages(3L).build(),
                LAST_ACTIVE + " < " + (NOW - 0.3) + " AND s.source = 'cli' AND s.message_count <= 3"));
        cells.add(new Cell("cwd + branch", b().cwd("/home/astro").gitBranch("main").build(), "1 = 0"));
        return cells;
    }

    private static SessionSelection.Builder b() {
        return SessionSelection.builder();
    }

    private static Instant at(double epochSeconds) {
        long seconds = (long) Math.floor(epochSeconds);
        return Instant.ofEpochSecond(seconds, Math.round((epochSeconds - seconds) * 1e9));
    }

    @Test
    void everyCellSelectsTheSameSessionsInEveryOperation() throws SQLException {
        Map<String, String> differences = new LinkedHashMap<>();
        int nonEmpty = 0;
        for (Cell cell : grid()) {
            String archived = cell.selection().includeArchived() ? "" : " AND s.archived = 0";
            List<String> expected = ids("SELECT s.id FROM sessions s WHERE (" + cell.sql() + ")" + archived
                    + " ORDER BY s.started_at DESC, s.id DESC");
            List<String> notArchivedRule = ids("SELECT s.id FROM sessions s WHERE (" + cell.sql() + ")"
                    + " ORDER BY s.started_at DESC, s.id DESC");
            List<String> ended = ids("SELECT s.id FROM sessions s WHERE s.ended_at IS NOT NULL");
            List<String> unarchived = ids("SELECT s.id FROM sessions s WHERE s.archived = 0");
            nonEmpty += expected.isEmpty() ? 0 : 1;

            compare(differences, cell, "select", expected, store.selectSessions(cell.selection()).stream().map(s -> s.id()).toList());
            List<RichSession> listed = store.listSessionsRich(ListSessionsQuery.builder().selection(cell.selection())
                    .includeChildren(true).projectCompressionTips(false).includeArchived(cell.selection().includeArchived())
                    .limit(100).build());
            compare(differences, cell, "list", expected, listed.stream().map(r -> r.session().id()).toList());
            List<String> exported = new ArrayList<>();
            long count = store.exportSessions(cell.selection(), (SessionExport export) -> exported.add(export.session().id()));
            compare(differences, cell, "export", expected, exported);
            assertEquals(exported.size(), count);

            // no filter: prune's default, last activity over 90 days ago, which no row of the fixture is
            List<String> prunable = cell.selection().hasFilter() ? wholeLineages(expected, ended::contains) : List.of();
            compare(differences, cell, "prune --dry-run", prunable, store.pruneSessions(cell.selection(), true).ids());
            List<String> archivable = wholeLineages(notArchivedRule, id -> true).stream()
                    .filter(id -> lineageOf(id).stream().anyMatch(unarchived::contains)).toList();
            compare(differences, cell, "archive --dry-run", archivable, store.archiveSessions(cell.selection(), true).ids());
        }
        assertEquals(Map.of(), differences);
        assertTrue(nonEmpty >= grid().size() - 2, "cells that select something: " + nonEmpty);
        assertEquals(43, store.selectSessions(b().includeArchived(true).build()).size(), "the dry runs changed nothing");
        assertEquals(41, store.selectSessions(SessionSelection.all()).size(), "2 archived");
    }

    private static void compare(Map<String, String> differences, Cell cell, String operation, List<String> expected,
                                List<String> actual) {
        if (!expected.equals(actual)) {
            differences.put(cell.name() + " / " + operation, "expected " + expected + " got " + actual);
        }
    }

    /** The ids of {@code selected} whose whole lineage is selected and passes {@code also}, in order. */
    private static List<String> wholeLineages(List<String> selected, java.util.function.Predicate<String> also) {
        return selected.stream().filter(id -> lineageOf(id).stream().allMatch(m -> selected.contains(m) && also.test(m)))
                .toList();
    }

    private static Set<String> lineageOf(String id) {
        return LINEAGES.stream().filter(l -> l.contains(id)).findFirst().orElse(Set.of(id));
    }

    @Test
    void aPruneRemovesALineageAsOneUnitWithItsMessages() throws SQLException {
        SessionSelection early = SessionSelection.builder().source("cli").startedBefore(at(1796159100.6)).build();
        // the chain's tip is live: the whole "my project" lineage stays, only the lone ended session goes
        assertEquals(List.of("20260311_080000_2133b2"), store.pruneSessions(early, true).ids());
        assertTrue(store.endSession("20260310_135900_0957cb", "cli_close"));
        long messagesBefore = store.messageCount(null);
        SelectionOutcome pruned = store.pruneSessions(early, false);
        assertEquals(List.of("20260311_080000_2133b2", "20260310_135900_0957cb", "20260310_125900_7d739b",
                "20260310_113000_6c0e5a", "20260310_090500_53bef4", "20260310_090000_8520da"), pruned.ids());
        assertEquals(6 + 2 + 2 + 2 + 2 + 5, pruned.messages(), "the message rows of the six sessions");
        assertTrue(!pruned.dryRun());
        assertEquals(messagesBefore - pruned.messages(), store.messageCount(null));
        for (String id : pruned.ids()) {
            assertTrue(store.exportSession(id).isEmpty(), id);
            assertEquals(0, store.messageCount(id), id);
        }
        assertEquals(37, store.selectSessions(b().includeArchived(true).build()).size(), "43 - 6 sessions left");
        assertEquals(List.of(), store.pruneSessions(early, true).ids(), "nothing left to prune");
        afterPrune(pruned.ids());
    }

    /** Engine-specific checks after the prune (the full-text index on SQLite). */
    void afterPrune(List<String> pruned) throws SQLException {
    }

    @Test
    void archivingBySelectionArchivesWholeLineages() throws SQLException {
        SessionSelection opus = SessionSelection.builder().model("anthropic/claude-opus-4.6").build();
        SelectionOutcome outcome = store.archiveSessions(opus, false);
        // the "my project" chain holds a sonnet delegate: the lineage is not wholly selected and stays listed
        assertTrue(outcome.ids().stream().noneMatch(LINEAGES.get(0)::contains), outcome.ids()::toString);
        assertEquals(ids("SELECT id FROM sessions WHERE model = 'anthropic/claude-opus-4.6' AND parent_session_id IS NULL"
                + " AND end_reason IS NOT 'compression' ORDER BY started_at DESC, id DESC"), outcome.ids());
        assertEquals(List.of(), store.archiveSessions(opus, true).ids(), "archived ones are not archived again");
        assertEquals(List.of(), store.selectSessions(opus).stream().filter(s -> outcome.ids().contains(s.id())).toList());
    }

    @Test
    void badSelectionsAreRefusedTypedBeforeAnythingIsRead() {
        assertThrows(InvalidArgumentException.class, () -> b().minMessages(5L).maxMessages(4L).build());
        assertThrows(InvalidArgumentException.class, () -> b().minTokens(-1L).build());
        assertThrows(InvalidArgumentException.class, () -> b().minCost(0.5).maxCost(0.1).build());
        assertThrows(InvalidArgumentException.class, () -> b().maxCost(Double.NaN).build());
        assertThrows(InvalidArgumentException.class, () -> b().olderThan(Duration.ofSeconds(-1)).build());
        assertThrows(InvalidArgumentException.class, () -> b().startedAfter(at(5)).startedBefore(at(5)).build());
        assertThrows(InvalidArgumentException.class, () -> b().source("").build());
        assertTrue(!b().includeArchived(true).build().hasFilter());
    }

    /** A new folder under the test's temporary one. */
    Path folder(String name) {
        try {
            return java.nio.file.Files.createDirectories(dir.resolve(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The ids a plain SQL query of the fixture's copy returns, in order. */
    List<String> ids(String sql) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(fixture);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        return ids;
    }

    static Set<String> set(List<String> ids) {
        return new LinkedHashSet<>(ids);
    }
}
