package dev.hermes.state.core;

import dev.hermes.state.core.model.CompressionCooldown;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.HandoffState;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionColumns;
import dev.hermes.state.core.model.Timestamps;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's own files at schema 17 (a fresh one, and a version-6 file the agent upgraded) read and
 * written by the store: every session row as MANIFEST-v7-v17.md lists it, the archived lineage, the
 * state_meta values, the compression lock and cooldown of the gateway session, its routing peer and
 * handoff. Values the manifest does not list are the agent's answers on a copy of the same file.
 */
class V17FixturesTest {
    private static final String GATEWAY = "20260402_120000_e4c20a";
    private static final String COMET = "20260401_083000_e4c1a0";
    private static final String COMET_DELEGATE = "20260401_083500_e4c1a1";
    private static final String CATALOGUE = "20260402_080000_e4c1c4";
    private static final String CATALOGUE_2 = "20260402_081500_e4c1c5";
    private static final String L1 = "20260310_090000_8520da";
    private static final String L1_CHILD = "20260310_090500_53bef4";
    private static final String L2 = "20260310_113000_6c0e5a";
    /** The fixture's lock: taken at 1796159101.216316 for 300 s (read from the file, as the agent does). */
    private static final double LOCK_TAKEN = 1796159101.216316;

    @TempDir
    Path dir;

    @Test
    void everySessionOfTheFreshFileIsTheManifests() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir))) {
            checkRows(store, "state-v17.db", 43);
        }
    }

    @Test
    void everySessionOfTheUpgradedFileIsTheManifests() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17-upgraded.db", dir))) {
            checkRows(store, "state-v17-upgraded.db", 30);
        }
    }

    @Test
    void theGatewaySessionsCoordinationState() {
        Path file = Fixtures.copy("state-v17.db", dir);
        try (StateRepository store = at(file, LOCK_TAKEN + 1)) {
            assertEquals(Optional.of("pid:4242:fixture-gen"), store.getCompressionLockHolder(GATEWAY));
            assertFalse(store.tryAcquireCompressionLock(GATEWAY, "someone-else", java.time.Duration.ofMinutes(5)));
            CompressionCooldown cooldown = store.getCompressionFailureCooldown(GATEWAY).orElseThrow();
            assertEquals(1796162701.214919, Timestamps.epochSeconds(cooldown.until()), 0.0);
            assertEquals("compression failed: provider returned HTTP 529", cooldown.error());
            assertEquals(3598.998603, cooldown.remainingSeconds(), 1e-5);
            assertEquals(Optional.of(new HandoffState("pending", "discord", null)), store.getHandoffState(GATEWAY));
            assertEquals(List.of(GATEWAY), store.listPendingHandoffs().stream().map(Session::id).toList());
            Session gateway = store.getSession(GATEWAY).orElseThrow();
            assertEquals(List.of("telegram", "tg:551234960", "agent:main:telegram:group:-1001234567890:77", "-1001234567890",
                    "group", "77"), List.of(gateway.source(), gateway.userId(), gateway.sessionKey(), gateway.chatId(),
                    gateway.chatType(), gateway.threadId()));
            assertEquals(GATEWAY, store.findLatestGatewaySessionForPeer(new GatewayPeer("telegram", null,
                    "agent:main:telegram:group:-1001234567890:77", null, null, null)).orElseThrow().id());
            assertEquals(GATEWAY, store.findLatestGatewaySessionForPeer(new GatewayPeer("telegram", "tg:551234960", "other",
                    "-1001234567890", "group", "77")).orElseThrow().id());
            assertEquals(Optional.of("1796159101.2236392"), store.getMeta("last_auto_prune"));
            assertTrue(store.getMeta("goal:" + COMET).orElseThrow()
                    .startsWith("{\"goal\": \"Predict comet Encke's next perihelion\", \"status\": \"done\", \"turns_used\": 2,"));
            assertEquals(0, store.countEmptySessions());
            assertEquals(2, store.optimizeFts());
        }
        try (StateRepository store = at(file, LOCK_TAKEN + 301)) {
            assertEquals(Optional.empty(), store.getCompressionLockHolder(GATEWAY), "the lease ran out");
            assertTrue(store.tryAcquireCompressionLock(GATEWAY, "someone-else", java.time.Duration.ofMinutes(5)));
        }
    }

    @Test
    void theArchivedLineageAndTheDelegateCascadeOnTheFreshFile() {
        try (StateRepository store = at(Fixtures.copy("state-v17.db", dir), LOCK_TAKEN)) {
            assertTrue(store.getSession(CATALOGUE).orElseThrow().archived());
            assertTrue(store.setSessionArchived(CATALOGUE_2, false));
            assertFalse(store.getSession(CATALOGUE).orElseThrow().archived());
            assertFalse(store.getSession(CATALOGUE_2).orElseThrow().archived());
            assertTrue(store.deleteSession(COMET));
            assertEquals(Optional.empty(), store.getSession(COMET_DELEGATE), "tagged delegate child deleted with its parent");
            assertEquals(41, store.searchSessions(new SearchSessionsQuery(null, 100, 0)).size());
        }
    }

    @Test
    void theUpgradedFilesLineageIsArchivedAndItsUntaggedChildSurvivesADelete() {
        try (StateRepository store = at(Fixtures.copy("state-v17-upgraded.db", dir), LOCK_TAKEN)) {
            assertEquals(Optional.empty(), store.getMeta("last_auto_prune"));
            assertEquals(0, store.countEmptySessions());
            assertTrue(store.setSessionArchived(L1, false));
            assertTrue(store.searchSessions(new SearchSessionsQuery(null, 100, 0)).stream().noneMatch(Session::archived));
            assertTrue(store.deleteSession(L1));
            assertEquals(null, store.getSession(L1_CHILD).orElseThrow().parentSessionId(), "orphaned, not cascaded");
            assertEquals(null, store.getSession(L2).orElseThrow().parentSessionId());
        }
    }

    /** A read-write store on the file at 17, its clock fixed at {@code epochSeconds}. */
    private static StateRepository at(Path file, double epochSeconds) {
        Clock clock = Clock.fixed(Timestamps.ofEpochSeconds(epochSeconds), ZoneOffset.UTC);
        return StateRepository.builder().path(file).schemaVersion(17).clock(clock).build();
    }

    /** The manifest's table of the file: #, id, source, title, parent, end_reason, msgs, tool_calls, archived, rewind_count, api_call_count, cwd. */
    private static void checkRows(StateRepository store, String name, int expectedRows) {
        List<List<String>> rows = manifestRows(name);
        assertEquals(expectedRows, rows.size());
        for (List<String> row : rows) {
            Session session = store.getSession(row.get(1)).orElseThrow(() -> new AssertionError("no session " + row.get(1)));
            assertEquals(SessionColumns.V17, session.columns());
            List<String> actual = List.of(session.source(), text(session.title()), text(session.parentSessionId()),
                    text(session.endReason()), String.valueOf(session.messageCount()), String.valueOf(session.toolCallCount()),
                    session.archived() ? "1" : "0", String.valueOf(session.rewindCount()), String.valueOf(session.apiCallCount()),
                    text(session.cwd()));
            assertEquals(row.subList(2, 12), actual, "session " + row.get(1));
        }
        assertEquals(expectedRows, store.searchSessions(new SearchSessionsQuery(null, 1000, 0)).size());
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static List<List<String>> manifestRows(String name) {
        String manifest = Fixtures.manifest("MANIFEST-v7-v17.md");
        int start = manifest.indexOf("\n## " + name + "\n");
        int end = manifest.indexOf("\n## ", start + 1);
        String section = manifest.substring(start, end < 0 ? manifest.length() : end);
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : section.split("\n")) {
            if (line.startsWith("| # | id |")) {
                inTable = true;
                continue;
            }
            if (inTable && line.startsWith("|---")) {
                continue;
            }
            if (inTable && line.startsWith("| ")) {
                List<String> cells = new ArrayList<>();
                for (String cell : line.substring(1, line.length() - 1).split("\\|", -1)) {
                    cells.add(cell.strip());
                }
                rows.add(cells);
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }
}
