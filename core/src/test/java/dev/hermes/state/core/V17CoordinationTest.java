package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.CompressionCooldown;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.HandoffState;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.Timestamps;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What processes coordinate through a store at schema 17, on both engines: state_meta, the compression
 * lease and cooldown, the handoff state machine, the gateway's routing peer. Expected values: the
 * agent's v17 module with the same calls and clock steps (E1-E15, F1-F9, G1-G9, I1 of the reference run).
 */
class V17CoordinationTest extends FreshStoreTest {
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @Override
    int schemaVersion() {
        return 17;
    }

    @Test
    void stateMetaKeepsOneValuePerKey() {
        assertEquals(Optional.empty(), store.getMeta("k"));
        store.setMeta("k", "v");
        assertEquals(Optional.of("v"), store.getMeta("k"));
        store.setMeta("k", "w");
        assertEquals(Optional.of("w"), store.getMeta("k"));
        store.setMeta("k", null);
        assertEquals(Optional.empty(), store.getMeta("k"));
    }

    /** The agent (E1-E10): a lease for its TTL, reclaimed once expired, refreshed and released only by its holder. */
    @Test
    void theCompressionLockIsALeaseOfItsHolder() throws Exception {
        store.createSession("s1", "cli");
        assertTrue(store.tryAcquireCompressionLock("s1", "a", TEN_SECONDS));
        assertFalse(store.tryAcquireCompressionLock("s1", "b", TEN_SECONDS));
        assertTrue(store.tryAcquireCompressionLock("s1", "a", TEN_SECONDS), "the holder's own lease");
        assertEquals("a", queryString("SELECT holder FROM compression_locks WHERE session_id = 's1'"));
        assertEquals(10.0, Double.parseDouble(queryString("SELECT expires_at - acquired_at FROM compression_locks")), 1e-6);
        assertEquals(Optional.of("a"), store.getCompressionLockHolder("s1"));
        clock.advance(Duration.ofSeconds(11));
        assertEquals(Optional.empty(), store.getCompressionLockHolder("s1"));
        assertFalse(store.refreshCompressionLock("s1", "a", TEN_SECONDS), "an expired lease is not refreshed");
        assertTrue(store.tryAcquireCompressionLock("s1", "b", TEN_SECONDS), "an expired lease is reclaimed");
        assertEquals(Optional.of("b"), store.getCompressionLockHolder("s1"));
        assertEquals(1, queryLong("SELECT count(*) FROM compression_locks"));
        assertTrue(store.refreshCompressionLock("s1", "b", Duration.ofSeconds(20)));
        assertFalse(store.refreshCompressionLock("s1", "", Duration.ofSeconds(20)));
        store.releaseCompressionLock("s1", "a");
        assertEquals(Optional.of("b"), store.getCompressionLockHolder("s1"));
        store.releaseCompressionLock("s1", "b");
        assertEquals(Optional.empty(), store.getCompressionLockHolder("s1"));
        assertTrue(store.tryAcquireCompressionLock("nosession", "a", Duration.ofMinutes(5)), "no session is needed");
        assertTrue(store.tryAcquireCompressionLock("s1", "", Duration.ofSeconds(5)), "the agent takes an empty holder");
        assertThrows(InvalidArgumentException.class, () -> store.tryAcquireCompressionLock("", "a", TEN_SECONDS));
    }

    @Test
    void theLeaseRunsOnTheStoresClock() throws Exception {
        store.createSession("s1", "cli");
        double before = TestStores.EPOCH.getEpochSecond();
        assertTrue(store.tryAcquireCompressionLock("s1", "a", Duration.ofMillis(2500)));
        double acquired = Double.parseDouble(queryString("SELECT acquired_at FROM compression_locks"));
        double expires = Double.parseDouble(queryString("SELECT expires_at FROM compression_locks"));
        assertTrue(acquired > before && acquired < before + 1, "acquired at the store's clock: " + acquired);
        assertEquals(acquired + 2.5, expires, 0.0);
        assertTrue(store.refreshCompressionLock("s1", "a", Duration.ofSeconds(60)));
        assertTrue(Double.parseDouble(queryString("SELECT expires_at FROM compression_locks")) > acquired + 60);
    }

    /** The agent (E10b-E15): the cooldown until the time given, exactly; over once that time passed. */
    @Test
    void theCompressionCooldownLastsUntilItsEnd() {
        store.createSession("s1", "cli");
        Instant until = Timestamps.ofEpochSeconds(1773133260.1234567);
        store.recordCompressionFailureCooldown("s1", until, "timeout");
        CompressionCooldown cooldown = store.getCompressionFailureCooldown("s1").orElseThrow();
        assertEquals(1773133260.1234567, Timestamps.epochSeconds(cooldown.until()), 0.0);
        assertEquals("timeout", cooldown.error());
        assertEquals(60.12, cooldown.remainingSeconds(), 0.01);
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("timeout", session.compressionFailureError());
        assertEquals(Instant.parse("2026-03-10T09:01:00.123457Z"), session.compressionFailureCooldownUntil());
        store.recordCompressionFailureCooldown("s1", TestStores.EPOCH, null);
        assertEquals(Optional.empty(), store.getCompressionFailureCooldown("s1"), "a cooldown that has ended");
        assertNull(store.getSession("s1").orElseThrow().compressionFailureError());
        store.clearCompressionFailureCooldown("s1");
        session = store.getSession("s1").orElseThrow();
        assertNull(session.compressionFailureCooldownUntil());
        assertNull(session.compressionFailureError());
        assertEquals(Optional.empty(), store.getCompressionFailureCooldown("missing"));
    }

    /** The agent (F1-F9): NULL → pending → running → completed or failed; a finished one may be asked again. */
    @Test
    void theHandoffIsAStateMachine() {
        store.createSession("h1", "cli");
        store.createSession("h2", "cli");
        assertEquals(Optional.of(new HandoffState(null, null, null)), store.getHandoffState("h1"));
        assertEquals(Optional.empty(), store.getHandoffState("nope"));
        assertTrue(store.requestHandoff("h1", "discord"));
        assertFalse(store.requestHandoff("h1", "slack"), "one in flight");
        assertFalse(store.requestHandoff("nope", "x"));
        assertEquals(Optional.of(new HandoffState("pending", "discord", null)), store.getHandoffState("h1"));
        store.requestHandoff("h2", "telegram");
        assertEquals(List.of("h1", "h2"), store.listPendingHandoffs().stream().map(Session::id).toList());
        assertTrue(store.claimHandoff("h1"));
        assertFalse(store.claimHandoff("h1"));
        assertFalse(store.requestHandoff("h1", "slack"), "running");
        store.failHandoff("h1", "é".repeat(600) + "\uD83D\uDE80");
        HandoffState failed = store.getHandoffState("h1").orElseThrow();
        assertEquals("failed", failed.state());
        assertEquals("discord", failed.platform());
        assertEquals("é".repeat(500), failed.error());
        assertTrue(store.requestHandoff("h1", "slack"));
        assertEquals(Optional.of(new HandoffState("pending", "slack", null)), store.getHandoffState("h1"));
        store.claimHandoff("h1");
        store.completeHandoff("h1");
        assertEquals(Optional.of(new HandoffState("completed", "slack", null)), store.getHandoffState("h1"));
        assertEquals(List.of("h2"), store.listPendingHandoffs().stream().map(Session::id).toList());
    }

    @Test
    void aFailureReasonIsCutAtCodePointsNotInsideAPair() {
        store.createSession("h1", "cli");
        store.failHandoff("h1", "x".repeat(499) + "\uD83D\uDE80\uD83D\uDE80");
        assertEquals("x".repeat(499) + "\uD83D\uDE80", store.getHandoffState("h1").orElseThrow().error());
    }

    /** The agent (G1-G9): the session key first, then the whole peer; only recoverable sessions with messages. */
    @Test
    void theGatewayFindsTheLatestRecoverableSessionOfAPeer() {
        store.createSession(NewSession.builder("g1", "telegram").userId("u1").sessionKey("key1").chatId("c1").chatType("dm").build());
        store.appendMessage("g1", NewMessage.of("user", "hi"));
        clock.advance(Duration.ofSeconds(1));
        store.createSession(NewSession.builder("g2", "telegram").userId("u1").chatId("c1").chatType("dm").build());
        store.appendMessage("g2", NewMessage.of("user", "later"));
        assertEquals("g1", latest(new GatewayPeer("telegram", null, "key1", null, null, null)));
        assertEquals("g2", latest(new GatewayPeer("telegram", "u1", "nokey", "c1", "dm", null)));
        assertEquals("-", latest(new GatewayPeer("telegram", "u1", "nokey", "c1", null, null)));
        assertEquals("-", latest(new GatewayPeer("telegram", "u1", null, "c1", "dm", null)));
        assertEquals("-", latest(new GatewayPeer("discord", null, "key1", null, null, null)));
        store.recordGatewaySessionPeer("g2", new GatewayPeer("discord", null, "key2", "c9", null, null));
        Session g2 = store.getSession("g2").orElseThrow();
        assertEquals(List.of("discord", "-", "key2", "c9", "-", "-"), List.of(g2.source(), dash(g2.userId()),
                dash(g2.sessionKey()), dash(g2.chatId()), dash(g2.chatType()), dash(g2.threadId())));
        store.recordGatewaySessionPeer("g1", new GatewayPeer("slack", null, null, null, null, null));
        assertEquals("telegram", store.getSession("g1").orElseThrow().source(), "nothing is recorded without a key");
        store.endSession("g2", "agent_close");
        assertEquals("g2", latest(new GatewayPeer("discord", null, "key2", null, null, null)));
        store.reopenSession("g2");
        store.endSession("g2", "session_reset");
        assertEquals("-", latest(new GatewayPeer("discord", null, "key2", null, null, null)));
        store.createSession(NewSession.builder("g3", "discord").sessionKey("key3").build());
        assertEquals("-", latest(new GatewayPeer("discord", null, "key3", null, null, null)), "no messages");
    }

    private String latest(GatewayPeer peer) {
        return store.findLatestGatewaySessionForPeer(peer).map(Session::id).orElse("-");
    }

    private static String dash(String value) {
        return value == null ? "-" : value;
    }
}
