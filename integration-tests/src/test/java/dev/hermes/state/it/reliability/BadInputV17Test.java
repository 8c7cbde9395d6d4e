package dev.hermes.state.it.reliability;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The operations of schema 17 on a file today's agent wrote, opened with the defaults (at 17): a bad
 * session id is refused with a typed error and changes nothing; an unknown one gives the answer today's
 * agent gives for it (7e8f50a, run on an empty store: rewind_to_message raises, archive_and_compact fails
 * its foreign key, restore_rewound returns 0, set_session_archived, request_handoff and claim_handoff False, the lock is
 * granted, the look-ups find nothing, the rest return None). {@link BadInputTest} holds the same table for a
 * store pinned at 6.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputV17Test {
    private static final List<String> INVALID_IDS = Arrays.asList(null, "", " \t ", "x".repeat(10_000));
    private static final String UNKNOWN = "no-such-session";

    @TempDir
    static Path dir;
    private Path db;
    private StateRepository store;

    @BeforeAll
    void open() {
        db = Fixtures.copy("state-v17.db", dir);
        store = StateRepository.open(db);
        assertEquals(SchemaRules.V17, store.schemaRules());
    }

    @AfterAll
    void close() {
        store.close();
    }

    /** Each operation with an id, and what an unknown id gives (Optional.empty(), false, 0, null, or the error type). */
    private Map<String, Case> operations() {
        Map<String, Case> byName = new LinkedHashMap<>();
        byName.put("rewindToMessage", new Case(id -> store.rewindToMessage(id, 1), InvalidArgumentException.class));
        byName.put("restoreRewound", new Case(id -> store.restoreRewound(id, 1), 0));
        // the agent's insert of the summary fails its foreign key (IntegrityError): typed here, nothing written
        byName.put("archiveAndCompact", new Case(id -> store.archiveAndCompact(id, List.of(NewMessage.of("assistant", "s"))),
                ConstraintViolationException.class));
        byName.put("listRecentUserMessages", new Case(id -> store.listRecentUserMessages(id, 20, true), List.of()));
        byName.put("hasPlatformMessageId", new Case(id -> store.hasPlatformMessageId(id, "1"), false));
        byName.put("updateSessionCwd", new Case(id -> voidCall(() -> store.updateSessionCwd(id, "/w", "main", null)), null));
        byName.put("setSessionArchived", new Case(id -> store.setSessionArchived(id, true), false));
        byName.put("requestHandoff", new Case(id -> store.requestHandoff(id, "discord"), false));
        byName.put("getHandoffState", new Case(id -> store.getHandoffState(id), Optional.empty()));
        byName.put("claimHandoff", new Case(id -> store.claimHandoff(id), false));
        byName.put("completeHandoff", new Case(id -> voidCall(() -> store.completeHandoff(id)), null));
        byName.put("failHandoff", new Case(id -> voidCall(() -> store.failHandoff(id, "boom")), null));
        byName.put("getCompressionLockHolder", new Case(id -> store.getCompressionLockHolder(id), Optional.empty()));
        byName.put("getCompressionFailureCooldown", new Case(id -> store.getCompressionFailureCooldown(id), Optional.empty()));
        byName.put("clearCompressionFailureCooldown", new Case(id -> voidCall(() -> store.clearCompressionFailureCooldown(id)), null));
        byName.put("recordGatewaySessionPeer", new Case(id -> voidCall(() -> store.recordGatewaySessionPeer(id,
                new GatewayPeer("telegram", null, "k", null, null, null))), null));
        return byName;
    }

    @TestFactory
    List<DynamicTest> badIdsAreRefusedTypedAndChangeNothing() {
        List<DynamicTest> tests = new ArrayList<>();
        operations().forEach((name, operation) -> {
            for (String invalid : INVALID_IDS) {
                String shown = invalid == null ? "null" : invalid.length() > 20 ? invalid.length() + " characters" : "'" + invalid + "'";
                tests.add(DynamicTest.dynamicTest(name + "(" + shown + ")", () -> {
                    String before = StoreFiles.logicalDumpSha256(db);
                    assertThrows(InvalidArgumentException.class, () -> operation.call().apply(invalid));
                    assertEquals(before, StoreFiles.logicalDumpSha256(db), "nothing changed");
                }));
            }
            tests.add(DynamicTest.dynamicTest(name + "(unknown id)", () -> {
                String before = StoreFiles.logicalDumpSha256(db);
                if (operation.unknown() instanceof Class<?> error) {
                    HermesStateException thrown = assertThrows(HermesStateException.class, () -> operation.call().apply(UNKNOWN));
                    assertInstanceOf(error, thrown);
                } else {
                    assertEquals(operation.unknown(), operation.call().apply(UNKNOWN));
                }
                assertEquals(before, StoreFiles.logicalDumpSha256(db), "an unknown session changes nothing");
            }));
        });
        return tests;
    }

    @TestFactory
    List<DynamicTest> writesForAnUnknownSessionThatTheAgentRefusesAreRefused() {
        return List.of(
                DynamicTest.dynamicTest("appendMessage", () -> {
                    String before = StoreFiles.logicalDumpSha256(db);
                    assertThrows(ConstraintViolationException.class, () -> store.appendMessage(UNKNOWN, NewMessage.of("user", "x")));
                    assertEquals(before, StoreFiles.logicalDumpSha256(db));
                }),
                DynamicTest.dynamicTest("the compression lock of an unknown session is granted, as the agent grants it", () -> {
                    assertEquals(true, store.tryAcquireCompressionLock(UNKNOWN, "h", Duration.ofSeconds(5)));
                    assertEquals(Optional.of("h"), store.getCompressionLockHolder(UNKNOWN));
                    assertEquals(true, store.refreshCompressionLock(UNKNOWN, "h", Duration.ofSeconds(5)));
                    store.releaseCompressionLock(UNKNOWN, "h");
                    assertEquals(Optional.empty(), store.getCompressionLockHolder(UNKNOWN));
                }),
                DynamicTest.dynamicTest("a cooldown for an unknown session records nothing", () -> {
                    String before = StoreFiles.logicalDumpSha256(db);
                    store.recordCompressionFailureCooldown(UNKNOWN, Instant.now().plusSeconds(60), "x");
                    assertEquals(Optional.empty(), store.getCompressionFailureCooldown(UNKNOWN));
                    assertEquals(before, StoreFiles.logicalDumpSha256(db));
                }));
    }

    private static Object voidCall(Runnable call) {
        call.run();
        return null;
    }

    private record Case(Function<String, Object> call, Object unknown) {
    }
}
