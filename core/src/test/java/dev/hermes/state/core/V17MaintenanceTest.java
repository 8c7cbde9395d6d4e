package dev.hermes.state.core;

import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.AutoMaintenanceReport;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.VacuumReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Maintenance at schema 17, on both engines: the full-text merge, VACUUM's report, and the throttled
 * auto-maintenance. Expected values: the agent's v17 module with the same calls (I1-I8 of the
 * reference run); on PostgreSQL the merge is of its GIN indexes.
 */
class V17MaintenanceTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 17;
    }

    @Test
    void optimizeAndVacuumMergeBothFullTextIndexes() {
        store.createSession("s", "cli");
        store.appendMessage("s", NewMessage.of("user", "nebula over the ridge"));
        int indexes = onSqlite() ? 2 : (int) uncheckedLong("SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                + " JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = to_regclass('messages') AND a.amname = 'gin'");
        assertEquals(indexes, store.optimizeFts());
        VacuumReport report = store.vacuum();
        assertEquals(indexes, report.fullTextIndexesOptimized());
        assertTrue(report.bytesReclaimed() >= 0);
        assertEquals(1, store.searchMessages(SearchQuery.of("nebula")).size(), "search answers are unchanged");
    }

    /** The agent (I3-I8): at most once per interval; a value that is not a number counts as no earlier run. */
    @Test
    void autoMaintenancePrunesAndVacuumsAtMostOncePerInterval() throws Exception {
        for (int i = 0; i < 3; i++) {
            store.createSession("o" + i, "cli");
            store.appendMessage("o" + i, NewMessage.of("user", "old"));
            store.endSession("o" + i, "x");
        }
        store.createSession("live", "cli");
        clock.advance(Duration.ofDays(100));
        store.createSession("new", "cli");
        store.endSession("new", "x");
        double before = TestStores.EPOCH.getEpochSecond() + 100 * 86_400.0;
        assertEquals(new AutoMaintenanceReport(false, 3, true, null), store.maybeAutoPruneAndVacuum(Duration.ofDays(90), Duration.ofHours(24), true, null));
        String lastRun = store.getMeta("last_auto_prune").orElseThrow();
        double recorded = Double.parseDouble(lastRun);
        assertEquals(PythonJson.dumps(recorded), lastRun, "written as Python's str(float)");
        assertTrue(recorded > before && recorded < before + 1, lastRun);
        assertEquals(new AutoMaintenanceReport(true, 0, false, null), store.maybeAutoPruneAndVacuum(Duration.ofDays(90), Duration.ofHours(24), true, null));
        assertEquals(lastRun, store.getMeta("last_auto_prune").orElseThrow(), "a skipped run records nothing");
        clock.advance(Duration.ofHours(25));
        assertEquals(new AutoMaintenanceReport(false, 1, false, null), store.maybeAutoPruneAndVacuum(Duration.ZERO, Duration.ofHours(24), false, null));
        store.setMeta("last_auto_prune", "not a number");
        assertEquals(new AutoMaintenanceReport(false, 0, false, null), store.maybeAutoPruneAndVacuum(Duration.ofDays(90), Duration.ofHours(1000), true, null));
        store.setMeta("last_auto_prune", " 1_773_133_200.5 ");
        assertEquals(new AutoMaintenanceReport(true, 0, false, null), store.maybeAutoPruneAndVacuum(Duration.ofDays(90), Duration.ofHours(1_000_000_000), true, null));
        assertEquals(List.of("live"), store.searchSessions(new SearchSessionsQuery(null, 10, 0)).stream().map(s -> s.id()).toList());
    }

    private long uncheckedLong(String sql) {
        try {
            return queryLong(sql);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
