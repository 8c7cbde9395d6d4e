package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionColumns;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store kept at version 6 keeps version 6's answers: its rows have the 26 columns, an existing id
 * is left alone, no delegate cascade, no title transfer; what needs schema 17's columns or tables is
 * refused with a typed error and writes nothing.
 */
class V6RulesSessionsTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 6;
    }

    @Test
    void rowsHaveTheVersion6ColumnsAndAnExistingIdIsLeftAlone() {
        store.createSession(NewSession.builder("s1", "telegram").build());
        store.createSession(NewSession.builder("s1", "cli").model("m").systemPrompt("SYS").build());
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(SessionColumns.V6, session.columns());
        assertNull(session.model());
        assertNull(session.systemPrompt());
        assertEquals(6, store.rulesVersion());
        store.updateTokenCounts("ghost", TokenUsage.builder().inputTokens(1).build());
        assertTrue(store.getSession("ghost").isEmpty(), "no row is made for the counts");
    }

    @Test
    void schema17ArgumentsAreRefusedBeforeAnythingIsWritten() {
        assertThrows(InvalidArgumentException.class, () -> store.createSession(NewSession.builder("s1", "cli").cwd("/w").build()));
        assertThrows(InvalidArgumentException.class,
                () -> store.ensureSession(NewSession.builder("s1", "cli").sessionKey("k").build()));
        assertEquals(0, store.sessionCount());
        store.createSession("s1", "cli");
        assertThrows(InvalidArgumentException.class,
                () -> store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(5).apiCallCount(1).build()));
        assertEquals(0, store.getSession("s1").orElseThrow().inputTokens());
    }

    @Test
    void operationsOfSchema17AreRefusedTyped() throws Exception {
        store.createSession("s1", "cli");
        List<Executable> refused = List.of(
                () -> store.setSessionArchived("s1", true),
                () -> store.updateSessionCwd("s1", "/w", null, null),
                () -> store.backfillRepoRoots(Map.of("/w", "/r")),
                () -> store.countEmptySessions(),
                () -> store.deleteEmptySessions(null),
                () -> store.finalizeOrphanedCompressionSessions(),
                () -> store.getMeta("k"),
                () -> store.setMeta("k", "v"),
                () -> store.tryAcquireCompressionLock("s1", "a", Duration.ofSeconds(5)),
                () -> store.refreshCompressionLock("s1", "a", Duration.ofSeconds(5)),
                () -> store.releaseCompressionLock("s1", "a"),
                () -> store.getCompressionLockHolder("s1"),
                () -> store.recordCompressionFailureCooldown("s1", Instant.EPOCH, null),
                () -> store.getCompressionFailureCooldown("s1"),
                () -> store.clearCompressionFailureCooldown("s1"),
                () -> store.recordGatewaySessionPeer("s1", new GatewayPeer("telegram", null, "k", null, null, null)),
                () -> store.findLatestGatewaySessionForPeer(new GatewayPeer("telegram", null, "k", null, null, null)),
                () -> store.requestHandoff("s1", "discord"),
                () -> store.getHandoffState("s1"),
                () -> store.listPendingHandoffs(),
                () -> store.claimHandoff("s1"),
                () -> store.completeHandoff("s1"),
                () -> store.failHandoff("s1", "x"),
                () -> store.telegramTopics().applyMigration(),
                () -> store.telegramTopics().bind("1", "2", "u", "k", "s1", "auto"));
        for (Executable operation : refused) {
            assertThrows(StateIOException.class, operation);
        }
        assertEquals(1, store.sessionCount());
        assertEquals(0, queryLong(onSqlite() ? "SELECT count(*) FROM sqlite_master WHERE name LIKE 'telegram%'"
                : "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'telegram%'"));
    }

    @Test
    void deletesOrphanEveryChildAndTitlesNeverMove() {
        store.createSession("p", "cli");
        store.createSession(NewSession.builder("d", "cli").parentSessionId("p").modelConfig(Map.of("_delegate_from", "p")).build());
        assertTrue(store.deleteSession("p"));
        assertNull(store.getSession("d").orElseThrow().parentSessionId());
        store.createSession("r", "cli");
        store.setSessionTitle("r", "Plan");
        store.endSession("r", "compression");
        store.createSession(NewSession.builder("c", "cli").parentSessionId("r").build());
        assertThrows(InvalidArgumentException.class, () -> store.setSessionTitle("c", "Plan"));
        assertEquals("Plan", store.getSessionTitle("r").orElseThrow());
        assertFalse(store.deleteSessionIfEmpty("r", null), "a titled session is not empty");
        assertEquals(1, store.deleteSessions(List.of("c", "nope"), null));
    }
}
