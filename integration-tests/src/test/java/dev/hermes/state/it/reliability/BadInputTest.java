package dev.hermes.state.it.reliability;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.core.model.SessionSelection;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.AnchoredView;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessagesAround;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.TokenUsage;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every public operation of {@link StateRepository}, fed null, blank, over-long and unknown values
 * and SQL-looking strings. Each call gives a typed error or a correct literal answer; none runs an
 * injected statement or writes part of its work: the row counts and a sha256 of a logical dump of
 * the file (schema and every row) are the same before and after every call of the first table. The
 * second table stores SQL-looking values and reads them back exactly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputTest {
    private static final String NULL = null;
    private static final String EMPTY = "";
    private static final String BLANK = " \t ";
    /** Far longer than any id, label or source can be. */
    private static final String OVER_LONG = "x".repeat(10_000);
    private static final String UNKNOWN = "no-such-session-7f3a";
    private static final String DROP = "'; DROP TABLE sessions; --";
    /** SQL and LIKE metacharacters, quotes and the FTS5 operator star. */
    private static final List<String> SQL_LOOKING = List.of(DROP, "%", "_", "\\", "\"", "*");

    /** Fixture session 13 ("100% done", slack) and the live end of the compression chain (MANIFEST). */
    private static final String HUNDRED_PERCENT = "20260312_154931_9d7f08";
    private static final String CHAIN_ROOT = "20260310_090000_8520da";
    private static final String LIVE = "20260310_135900_0957cb";

    @TempDir
    static Path dir;
    private Path db;
    private StateRepository store;
    private long literalMessageId;
    private long percentMessageId;

    @BeforeAll
    void openAFixtureWithLiteralMetacharacters() throws Exception {
        db = Fixtures.copy("state-v6.db", dir);
        // pinned at 6: what needs schema 17's columns must be refused, typed, on such a store
        store = StateRepository.builder().path(db).schemaVersion(6).build();
        // ids whose prefixes only match literally: as LIKE patterns "lit%", "und_" and "back\" match two each
        for (String id : List.of("lit%1", "litX1", "und_1", "undX1", "back\\1", "backX1", "title-num")) {
            store.createSession(id, "reliability");
        }
        literalMessageId = store.appendMessage("lit%1", NewMessage.of("user", "please ignore " + DROP + " thanks"));
        percentMessageId = store.appendMessage("lit%1", NewMessage.of("user", "100% done_now \\ back \"quoted\" *star*"));
        // titles go in with plain SQL: the lookups are tested here, setting titles in the second table
        try (Connection connection = SqliteFiles.readWrite(db);
             PreparedStatement title = connection.prepareStatement("UPDATE sessions SET title = ? WHERE id = ?")) {
            title.setString(1, "50% off #2");
            title.setString(2, "title-num");
            title.executeUpdate();
        }
    }

    @AfterAll
    void close() {
        store.close();
    }

    // ------------------------------------------------------------------ the table of calls that change nothing

    /** First: its expected counts are those of the fixture plus the sessions and messages added above. */
    @TestFactory
    @Order(1)
    Stream<DynamicTest> badOrTrickyInputGivesATypedErrorOrALiteralAnswerAndChangesNothing() {
        return unchangedCases().stream().map(c -> DynamicTest.dynamicTest(c.operation + ": " + c.input, () -> {
            Fingerprint before = Fingerprint.of(db, !c.mayRewriteIndex);
            c.outcome.check(c.call, c.toString());
            assertEquals(before, Fingerprint.of(db, !c.mayRewriteIndex), c + ": the file's content changed");
            if (c.mayRewriteIndex) {
                try (Connection connection = SqliteFiles.readWrite(db)) {
                    assertEquals(null, StoreFiles.ftsIntegrityProblem(connection), c + ": FTS5 integrity-check");
                }
            }
        }));
    }

    private List<Case> unchangedCases() {
        List<Case> cases = new ArrayList<>();
        idCases(cases);
        listingAndCountCases(cases);
        titleCases(cases);
        messageCases(cases);
        transcriptCases(cases);
        searchCases(cases);
        lifecycleCases(cases);
        copyCases(cases);
        schema17Cases(cases);
        return cases;
    }

    /**
     * The operations of schema 17 on this store, which is kept at version 6: bad input is refused as
     * anywhere; a well-formed call that needs the columns or tables of 17 is refused typed too; those
     * that only need version 6's columns answer.
     */
    private void schema17Cases(List<Case> cases) {
        Outcome needs17 = rejects(StateIOException.class);
        cases.add(new Case("ensureSession", "null NewSession", () -> voidCall(() -> store.ensureSession(null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "a cwd on a store kept at 6", () -> store.createSession(NewSession.builder("new-1", "cli")
                .cwd("/w").build()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "an API call count on a store kept at 6", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().apiCallCount(1).build())), rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "a negative API call count", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().apiCallCount(-1).build())), rejects(InvalidArgumentException.class)));
        cases.add(new Case("deleteSessions", "null list", () -> store.deleteSessions(null, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("deleteSessions", "an over-long id", () -> store.deleteSessions(List.of(OVER_LONG), null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("deleteSessions", "unknown and SQL-looking ids", () -> store.deleteSessions(
                Stream.concat(SQL_LOOKING.stream(), Stream.of(UNKNOWN, EMPTY)).toList(), dir.resolve("no-such-folder")), returns(0)));
        cases.add(new Case("countEmptySessions", "no arguments", () -> store.countEmptySessions(), needs17));
        cases.add(new Case("deleteEmptySessions", "no folder", () -> store.deleteEmptySessions(null), needs17));
        cases.add(new Case("pruneEmptyGhostSessions", "no folder (no TUI sessions here)", () -> store.pruneEmptyGhostSessions(null),
                returns(0)));
        cases.add(new Case("finalizeOrphanedCompressionSessions", "no arguments", () -> store.finalizeOrphanedCompressionSessions(),
                needs17));
        cases.add(new Case("maybeAutoPruneAndVacuum", "negative retention", () -> store.maybeAutoPruneAndVacuum(Duration.ofDays(-1),
                Duration.ofHours(24), true, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("maybeAutoPruneAndVacuum", "null retention", () -> store.maybeAutoPruneAndVacuum(null,
                Duration.ofHours(24), true, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("maybeAutoPruneAndVacuum", "null interval", () -> store.maybeAutoPruneAndVacuum(Duration.ofDays(90),
                null, true, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("maybeAutoPruneAndVacuum", "no state_meta here: the report says why, nothing is pruned",
                () -> store.maybeAutoPruneAndVacuum(Duration.ZERO, Duration.ofHours(24), true, null),
                satisfies("a report with an error", report -> ((dev.hermes.state.core.model.AutoMaintenanceReport) report).error() != null
                        && ((dev.hermes.state.core.model.AutoMaintenanceReport) report).pruned() == 0)));
        cases.add(new Case("getMeta", "null key", () -> store.getMeta(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("getMeta", "a key", () -> store.getMeta("last_auto_prune"), needs17));
        cases.add(new Case("setMeta", "null key", () -> voidCall(() -> store.setMeta(null, "v")), rejects(InvalidArgumentException.class)));
        cases.add(new Case("setMeta", "a key", () -> voidCall(() -> store.setMeta(DROP, DROP)), needs17));
        cases.add(new Case("listCronJobRuns", "null job", () -> store.listCronJobRuns(null, 20, 0), rejects(InvalidArgumentException.class)));
        cases.add(new Case("listCronJobRuns", "limit -1", () -> store.listCronJobRuns("job", -1, 0), rejects(InvalidArgumentException.class)));
        cases.add(new Case("listCronJobRuns", "offset -1", () -> store.listCronJobRuns("job", 20, -1), rejects(InvalidArgumentException.class)));
        for (String sql : SQL_LOOKING) {
            cases.add(new Case("listCronJobRuns", "job " + describe(sql), () -> store.listCronJobRuns(sql, 20, 0), returns(List.of())));
        }
        cases.add(new Case("backfillRepoRoots", "null map", () -> voidCall(() -> store.backfillRepoRoots(null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("backfillRepoRoots", "only empty pairs", () -> voidCall(() -> store.backfillRepoRoots(Map.of("", "/r", "/c", ""))),
                returns(null)));
        cases.add(new Case("backfillRepoRoots", "a pair", () -> voidCall(() -> store.backfillRepoRoots(Map.of(DROP, DROP))), needs17));
        cases.add(new Case("findLatestGatewaySessionForPeer", "null peer", () -> store.findLatestGatewaySessionForPeer(null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("findLatestGatewaySessionForPeer", "a peer", () -> store.findLatestGatewaySessionForPeer(
                new dev.hermes.state.core.model.GatewayPeer("telegram", null, DROP, null, null, null)), needs17));
        cases.add(new Case("recordGatewaySessionPeer", "null peer", () -> voidCall(() -> store.recordGatewaySessionPeer(LIVE, null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listPendingHandoffs", "no arguments", () -> store.listPendingHandoffs(), needs17));
        cases.add(new Case("failHandoff", "null error", () -> voidCall(() -> store.failHandoff(LIVE, null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("tryAcquireCompressionLock", "null holder", () -> store.tryAcquireCompressionLock(LIVE, null,
                java.time.Duration.ofSeconds(1)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("tryAcquireCompressionLock", "null ttl", () -> store.tryAcquireCompressionLock(LIVE, "a", null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("recordCompressionFailureCooldown", "null end", () -> voidCall(() ->
                store.recordCompressionFailureCooldown(LIVE, null, "x")), rejects(InvalidArgumentException.class)));
        cases.add(new Case("telegramTopics", "a null chat id", () -> store.telegramTopics().isEnabled(null, "u"),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("telegramTopics", "the opt-in on a store kept at 6", () -> voidCall(() -> store.telegramTopics().applyMigration()),
                needs17));
        cases.add(new Case("telegramTopics", "binding before the opt-in", () -> voidCall(() -> store.telegramTopics()
                .bind("1", "2", "u", "k", LIVE, "auto")), needs17));
        cases.add(new Case("telegramTopics", "reads before the opt-in", () -> List.of(store.telegramTopics().isEnabled(DROP, DROP),
                store.telegramTopics().binding(DROP, DROP), store.telegramTopics().isSessionLinked(LIVE)),
                returns(List.of(false, Optional.empty(), false))));
        cases.add(new Case("optimizeFts", "no arguments (content unchanged)", () -> store.optimizeFts(), returns(1), true));
        cases.add(new Case("rulesVersion", "no arguments", () -> store.rulesVersion(), returns(6)));
    }

    /** The store as the source of a copy, and as a target that holds sessions: refused, nothing written to it. */
    private void copyCases(List<Case> cases) {
        cases.add(new Case("copyTo", "null target", () -> store.copyTo(null, CopyOptions.intoEmpty(), null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("copyTo", "null options", () -> store.copyTo(store, null, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("copyTo", "itself", () -> store.copyTo(store, CopyOptions.appending(), null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("copyTo", "into this store, which holds sessions, without append", () -> {
            try (StateRepository other = StateRepository.open(dir.resolve("copy-source.db"))) {
                other.createSession("copied", "cli");
                return other.copyTo(store, CopyOptions.intoEmpty(), null);
            }
        }, rejects(InvalidArgumentException.class)));
        cases.add(new Case("copyTo", "a listener that throws", () -> {
            try (StateRepository other = StateRepository.open(dir.resolve("copy-target.db"))) {
                return store.copyTo(other, CopyOptions.intoEmpty(), progress -> {
                    throw new IllegalStateException("stop");
                });
            }
        }, rejects(IllegalStateException.class)));
    }

    /** Operations keyed by a session id: null/blank/over-long are invalid, unknown and SQL-looking ids are just unknown. */
    private void idCases(List<Case> cases) {
        Map<String, Function<String, Object>> byId = new LinkedHashMap<>();
        byId.put("getSession", id -> store.getSession(id));
        byId.put("resolveResumeSessionId", id -> store.resolveResumeSessionId(id));
        byId.put("getMessages", id -> store.getMessages(id));
        byId.put("getMessagesAsConversation", id -> store.getMessagesAsConversation(id));
        byId.put("getSessionTitle", id -> store.getSessionTitle(id));
        byId.put("exportSession", id -> store.exportSession(id));
        byId.put("getAncestors", id -> store.getAncestors(id));
        byId.put("getLineageTree", id -> store.getLineageTree(id));
        byId.put("getCompressionTip", id -> store.getCompressionTip(id));
        byId.put("resolveSessionId", id -> store.resolveSessionId(id));
        byId.put("endSession", id -> store.endSession(id, "cli_close"));
        byId.put("reopenSession", id -> voidCall(() -> store.reopenSession(id)));
        byId.put("updateSystemPrompt", id -> voidCall(() -> store.updateSystemPrompt(id, "new prompt")));
        byId.put("updateTokenCounts", id -> voidCall(() -> store.updateTokenCounts(id, TokenUsage.builder().inputTokens(5).build())));
        byId.put("clearMessages", id -> voidCall(() -> store.clearMessages(id)));
        byId.put("setSessionTitle", id -> store.setSessionTitle(id, "a fresh title"));
        byId.put("deleteSession", id -> store.deleteSession(id));
        byId.put("appendMessage", id -> store.appendMessage(id, NewMessage.of("user", "hello")));
        byId.put("appendMessages", id -> store.appendMessages(id, List.of(NewMessage.of("user", "a"), NewMessage.of("user", "b"))));
        byId.put("getMessagesPage", id -> store.getMessagesPage(id, null, 10));
        byId.put("ensureSession", id -> voidCall(() -> store.ensureSession(id, "cli", null)));
        byId.put("createSession", id -> store.createSession(id, "cli"));
        byId.put("loadConversationWindow", id -> store.loadConversationWindow(id));
        byId.put("deleteConversation", id -> store.deleteConversation(id));
        byId.put("saveConversationWindow", id -> store.saveConversationWindow(id, "spring-ai", List.of(WindowEntry.fresh(NewMessage.of("user", "hi")))));
        byId.put("rewindToMessage", id -> store.rewindToMessage(id, 1));
        byId.put("restoreRewound", id -> store.restoreRewound(id, 1));
        byId.put("archiveAndCompact", id -> store.archiveAndCompact(id, List.of()));
        byId.put("replaceMessages", id -> voidCall(() -> store.replaceMessages(id, List.of(), false)));
        byId.put("listRecentUserMessages", id -> store.listRecentUserMessages(id, 20, true));
        byId.put("hasArchivedMessages", id -> store.hasArchivedMessages(id));
        byId.put("hasPlatformMessageId", id -> store.hasPlatformMessageId(id, "1"));
        byId.put("getMessagesAround", id -> store.getMessagesAround(id, 1));
        byId.put("getAnchoredView", id -> store.getAnchoredView(id, 1));
        byId.put("deleteSessionIfEmpty", id -> store.deleteSessionIfEmpty(id, null));
        byId.put("updateSessionMeta", id -> voidCall(() -> store.updateSessionMeta(id, "{}", "m")));
        byId.put("updateSessionModel", id -> voidCall(() -> store.updateSessionModel(id, "m")));
        byId.put("updateSessionBillingRoute", id -> voidCall(() -> store.updateSessionBillingRoute(id, "p", "u", null)));
        byId.put("updateSessionCwd", id -> voidCall(() -> store.updateSessionCwd(id, "/w", "main", null)));
        byId.put("setSessionArchived", id -> store.setSessionArchived(id, true));
        byId.put("requestHandoff", id -> store.requestHandoff(id, "discord"));
        byId.put("getHandoffState", id -> store.getHandoffState(id));
        byId.put("claimHandoff", id -> store.claimHandoff(id));
        byId.put("completeHandoff", id -> voidCall(() -> store.completeHandoff(id)));
        byId.put("failHandoff", id -> voidCall(() -> store.failHandoff(id, "boom")));
        byId.put("tryAcquireCompressionLock", id -> store.tryAcquireCompressionLock(id, "h", java.time.Duration.ofSeconds(5)));
        byId.put("refreshCompressionLock", id -> store.refreshCompressionLock(id, "h", java.time.Duration.ofSeconds(5)));
        byId.put("releaseCompressionLock", id -> voidCall(() -> store.releaseCompressionLock(id, "h")));
        byId.put("getCompressionLockHolder", id -> store.getCompressionLockHolder(id));
        byId.put("recordCompressionFailureCooldown", id -> voidCall(() -> store.recordCompressionFailureCooldown(id,
                java.time.Instant.EPOCH, "x")));
        byId.put("getCompressionFailureCooldown", id -> store.getCompressionFailureCooldown(id));
        byId.put("clearCompressionFailureCooldown", id -> voidCall(() -> store.clearCompressionFailureCooldown(id)));
        byId.put("recordGatewaySessionPeer", id -> voidCall(() -> store.recordGatewaySessionPeer(id,
                new dev.hermes.state.core.model.GatewayPeer("telegram", null, "k", null, null, null))));

        for (var operation : byId.entrySet()) {
            String name = operation.getKey();
            var call = operation.getValue();
            for (String invalid : Arrays.asList(NULL, EMPTY, BLANK, OVER_LONG)) {
                cases.add(new Case(name, describe(invalid), () -> call.apply(invalid), rejects(InvalidArgumentException.class)));
            }
            if (name.equals("ensureSession") || name.equals("createSession") || name.equals("saveConversationWindow")) {
                continue; // with a new id they create a session: the second table
            }
            List<String> unknownIds = new ArrayList<>(SQL_LOOKING);
            unknownIds.add(UNKNOWN);
            for (String unknown : unknownIds) {
                cases.add(new Case(name, "unknown id " + describe(unknown), () -> call.apply(unknown), unknownIdOutcome(name, unknown)));
            }
        }
        // prefixes match literally
        cases.add(new Case("resolveSessionId", "prefix 'lit%'", () -> store.resolveSessionId("lit%"), returns(Optional.of("lit%1"))));
        cases.add(new Case("resolveSessionId", "prefix 'und_'", () -> store.resolveSessionId("und_"), returns(Optional.of("und_1"))));
        cases.add(new Case("resolveSessionId", "prefix 'back\\'", () -> store.resolveSessionId("back\\"), returns(Optional.of("back\\1"))));
        cases.add(new Case("resolveSessionId", "prefix 'lit' (two match)", () -> store.resolveSessionId("lit"), returns(Optional.empty())));
        cases.add(new Case("getCompressionTip", "the chain's root", () -> store.getCompressionTip(CHAIN_ROOT), returns(LIVE)));
        cases.add(new Case("saveConversationWindow", "blank source", () -> store.saveConversationWindow(LIVE, BLANK, List.of()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("saveConversationWindow", "null window", () -> store.saveConversationWindow(LIVE, "cli", null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("saveConversationWindow", "a null entry", () -> store.saveConversationWindow(LIVE, "cli",
                Arrays.asList(WindowEntry.fresh(NewMessage.of("user", "a")), null)), rejects(InvalidArgumentException.class)));
    }

    private static Outcome unknownIdOutcome(String operation, String id) {
        return switch (operation) {
            case "getSession", "getSessionTitle", "exportSession", "resolveSessionId" -> returns(Optional.empty());
            case "getMessages", "getMessagesAsConversation", "getAncestors", "getLineageTree", "loadConversationWindow",
                 "listRecentUserMessages" -> returns(List.of());
            case "hasArchivedMessages", "hasPlatformMessageId" -> returns(false);
            case "getMessagesAround" -> returns(MessagesAround.empty());
            case "getAnchoredView" -> returns(AnchoredView.empty());
            case "replaceMessages" -> returns(null);
            // a store kept at schema 6 has no soft-delete flags: refused whatever the id
            case "rewindToMessage", "restoreRewound", "archiveAndCompact" -> rejects(InvalidArgumentException.class);
            case "getCompressionTip", "resolveResumeSessionId" -> returns(id);
            case "endSession", "setSessionTitle", "deleteSession", "deleteConversation" -> returns(false);
            case "reopenSession", "updateSystemPrompt", "updateTokenCounts", "clearMessages", "updateSessionMeta",
                 "updateSessionModel", "updateSessionBillingRoute" -> returns(null);
            case "deleteSessionIfEmpty" -> returns(false);
            // schema 17's columns and tables, which this store (kept at 6) lacks
            case "updateSessionCwd", "setSessionArchived", "requestHandoff", "getHandoffState", "claimHandoff", "completeHandoff",
                 "failHandoff", "tryAcquireCompressionLock", "refreshCompressionLock", "releaseCompressionLock",
                 "getCompressionLockHolder", "recordCompressionFailureCooldown", "getCompressionFailureCooldown",
                 "clearCompressionFailureCooldown", "recordGatewaySessionPeer" -> rejects(StateIOException.class);
            case "appendMessage", "appendMessages" -> rejects(ConstraintViolationException.class);
            case "getMessagesPage" -> satisfies("an empty last page",
                    page -> ((Page<?>) page).items().isEmpty() && ((Page<?>) page).nextCursor().isEmpty());
            default -> throw new IllegalArgumentException(operation);
        };
    }

    private void listingAndCountCases(List<Case> cases) {
        cases.add(new Case("sessionCount", "null source (all)", () -> store.sessionCount(), returns(37L)));
        cases.add(new Case("sessionCount", "over-long source", () -> store.sessionCount(OVER_LONG), rejects(InvalidArgumentException.class)));
        cases.add(new Case("messageCount", "null (all)", () -> store.messageCount(null), returns(97L)));
        cases.add(new Case("messageCount", "over-long id", () -> store.messageCount(OVER_LONG), rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchSessions", "limit -1", () -> store.searchSessions(new SearchSessionsQuery(null, -1, 0)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchSessions", "offset -1", () -> store.searchSessions(new SearchSessionsQuery(null, 20, -1)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchSessions", "over-long source", () -> store.searchSessions(new SearchSessionsQuery(OVER_LONG, 20, 0)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "null query", () -> store.listSessionsRich(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "limit -1", () -> store.listSessionsRich(ListSessionsQuery.builder().limit(-1).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "offset -1", () -> store.listSessionsRich(ListSessionsQuery.builder().offset(-1).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "over-long source", () -> store.listSessionsRich(ListSessionsQuery.builder().source(OVER_LONG).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "blank excluded source",
                () -> store.listSessionsRich(ListSessionsQuery.builder().excludeSources(List.of(BLANK)).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRich", "a null excluded source",
                () -> store.listSessionsRich(ListSessionsQuery.builder().excludeSources(Arrays.asList("cli", null)).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRichPage", "null query", () -> store.listSessionsRichPage(null, null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("listSessionsRichPage", "limit 0", () -> store.listSessionsRichPage(ListSessionsQuery.builder().limit(0).build(), null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getMessagesPage", "limit 0", () -> store.getMessagesPage(LIVE, null, 0), rejects(InvalidArgumentException.class)));
        cases.add(new Case("sessionCount", "null query", () -> store.sessionCount((SessionCountQuery) null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("sessionCount", "over-long source",
                () -> store.sessionCount(SessionCountQuery.builder().source(OVER_LONG).build()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("sessionCount", "blank excluded source",
                () -> store.sessionCount(SessionCountQuery.builder().excludeSources(List.of(BLANK)).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getSessionsByLastActive", "limit -1", () -> store.getSessionsByLastActive(new SearchSessionsQuery(null, -1, 0)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getSessionsByLastActive", "offset -1", () -> store.getSessionsByLastActive(new SearchSessionsQuery(null, 20, -1)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getSessionsByLastActive", "over-long source", () -> store.getSessionsByLastActive(new SearchSessionsQuery(OVER_LONG, 20, 0)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchSessionsById", "null query", () -> store.searchSessionsById(null, 20, false),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchSessionsById", "limit -1", () -> store.searchSessionsById("2026", -1, false),
                rejects(InvalidArgumentException.class)));
        for (String sql : SQL_LOOKING) {
            cases.add(new Case("sessionCount", "source " + describe(sql), () -> store.sessionCount(sql), returns(0L)));
            cases.add(new Case("messageCount", "session id " + describe(sql), () -> store.messageCount(sql), returns(0L)));
            cases.add(new Case("sessionCount", "source " + describe(sql),
                    () -> store.sessionCount(SessionCountQuery.builder().source(sql).build()), returns(0L)));
            cases.add(new Case("getSessionsByLastActive", "source " + describe(sql), () -> store.getSessionsByLastActive(new SearchSessionsQuery(sql, 20, 0)),
                    returns(List.of())));
            // LIKE's metacharacters match literally, as the agent's escaped LIKE: only ids that contain them
            // ("%" and "\\" only the sessions made with them here, "_" those and every fixture id)
            String madeWith = sql.equals("%") ? "lit%1" : sql.equals("_") ? "und_1" : sql.equals("\\") ? "back\\1" : null;
            cases.add(new Case("searchSessionsById", "query " + describe(sql), () -> store.searchSessionsById(sql, 100, true).stream()
                    .map(row -> row.session().id()).toList(), satisfies(madeWith == null ? "nothing" : "ids containing it, " + madeWith
                    + " among them", ids -> ((List<?>) ids).stream().allMatch(id -> ((String) id).contains(sql))
                    && (madeWith == null ? ((List<?>) ids).isEmpty() : ((List<?>) ids).contains(madeWith)
                    && (sql.equals("_") || ((List<?>) ids).size() == 1)))));
            cases.add(new Case("searchSessions", "source " + describe(sql), () -> store.searchSessions(new SearchSessionsQuery(sql, 20, 0)), returns(List.of())));
            cases.add(new Case("listSessionsRich", "source " + describe(sql),
                    () -> store.listSessionsRich(ListSessionsQuery.builder().source(sql).build()), returns(List.of())));
            cases.add(new Case("listSessionsRich", "excluded source " + describe(sql) + " excludes nothing",
                    () -> store.listSessionsRich(ListSessionsQuery.builder().excludeSources(List.of(sql)).limit(100).build()).size(),
                    returns(store.listSessionsRich(ListSessionsQuery.builder().limit(100).build()).size())));
            cases.add(new Case("listSessionsRichPage", "cursor " + describe(sql),
                    () -> store.listSessionsRichPage(ListSessionsQuery.defaults(), sql), rejects(InvalidArgumentException.class)));
            cases.add(new Case("getMessagesPage", "cursor " + describe(sql),
                    () -> store.getMessagesPage(LIVE, sql, 10), rejects(InvalidArgumentException.class)));
            cases.add(new Case("listPruneCandidates", "source " + describe(sql), () -> store.listPruneCandidates(Duration.ZERO, sql), returns(List.of())));
            cases.add(new Case("pruneSessions", "source " + describe(sql), () -> store.pruneSessions(Duration.ZERO, sql).count(), returns(0)));
            cases.add(new Case("exportAll", "source " + describe(sql), () -> store.exportAll(sql, export -> fail("exported " + export)),
                    returns(0L)));
        }
        // a well-formed cursor that carries an SQL-looking session id: the id is a bound value
        String craftedCursor = Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("s1:" + Long.toHexString(Double.doubleToLongBits(1.0e10)) + ":" + DROP).getBytes(StandardCharsets.UTF_8));
        cases.add(new Case("listSessionsRichPage", "a crafted cursor holding " + DROP,
                () -> store.listSessionsRichPage(ListSessionsQuery.defaults(), craftedCursor).items().size(), returns(20)));
        for (Duration age : Arrays.asList(Duration.ofDays(-1), Duration.ofNanos(-1), null)) {
            cases.add(new Case("pruneSessions", "older than " + age, () -> store.pruneSessions(age, null),
                    rejects(InvalidArgumentException.class)));
            cases.add(new Case("listPruneCandidates", "older than " + age, () -> store.listPruneCandidates(age, null),
                    rejects(InvalidArgumentException.class)));
        }
        cases.add(new Case("pruneSessions", "over-long source", () -> store.pruneSessions(Duration.ZERO, OVER_LONG).count(), rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportAll", "null sink", () -> store.exportAll(null, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportAll", "over-long source", () -> store.exportAll(OVER_LONG, export -> { }), rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportAll", "a sink that throws", () -> store.exportAll(null, export -> {
            throw new IllegalStateException("disk full");
        }), rejects(IllegalStateException.class)));
        // the operator's selection (sessions list / prune / archive / export)
        SessionSelection telegram = SessionSelection.builder().source("telegram").build();
        cases.add(new Case("selectSessions", "null selection", () -> store.selectSessions(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("pruneSessions", "null selection", () -> store.pruneSessions(null, false), rejects(InvalidArgumentException.class)));
        cases.add(new Case("archiveSessions", "null selection", () -> store.archiveSessions(null, false), rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportSessions", "null selection", () -> store.exportSessions(null, export -> { }),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportSessions", "null sink", () -> store.exportSessions(telegram, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("exportSessions", "a sink that throws", () -> store.exportSessions(SessionSelection.all(), export -> {
            throw new IllegalStateException("disk full");
        }), rejects(IllegalStateException.class)));
        // the analytics and the backup
        cases.add(new Case("getUsage", "null query", () -> store.getUsage(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("backupTo", "null target", () -> store.backupTo(null, BackupOptions.full()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("backupTo", "null options", () -> store.backupTo(dir.resolve("backup.db"), null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("backupTo", "the store's own file", () -> store.backupTo(store.path().orElseThrow(), BackupOptions.full()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("backupTo", "an incremental update of a backup that does not exist",
                () -> store.backupTo(dir.resolve("never-made.db"), BackupOptions.incrementalUpdate()), rejects(InvalidArgumentException.class)));
    }

    private void titleCases(List<Case> cases) {
        cases.add(new Case("getSessionByTitle", "null", () -> store.getSessionByTitle(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("resolveSessionByTitle", "null", () -> store.resolveSessionByTitle(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("getNextTitleInLineage", "null", () -> store.getNextTitleInLineage(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("getSessionByTitle", "over-long", () -> store.getSessionByTitle(OVER_LONG), returns(Optional.empty())));
        cases.add(new Case("getSessionByTitle", "'100% done'", () -> store.getSessionByTitle("100% done").map(Session::id),
                returns(Optional.of(HUNDRED_PERCENT))));
        cases.add(new Case("getSessionByTitle", "'100_ done'", () -> store.getSessionByTitle("100_ done"), returns(Optional.empty())));
        cases.add(new Case("resolveSessionByTitle", "'100% done'", () -> store.resolveSessionByTitle("100% done"),
                returns(Optional.of(HUNDRED_PERCENT))));
        cases.add(new Case("resolveSessionByTitle", "'100_ done'", () -> store.resolveSessionByTitle("100_ done"), returns(Optional.empty())));
        cases.add(new Case("resolveSessionByTitle", "'100%'", () -> store.resolveSessionByTitle("100%"), returns(Optional.empty())));
        cases.add(new Case("resolveSessionByTitle", "'test%project'", () -> store.resolveSessionByTitle("test%project"), returns(Optional.empty())));
        cases.add(new Case("resolveSessionByTitle", "'50% off' (numbered)", () -> store.resolveSessionByTitle("50% off"),
                returns(Optional.of("title-num"))));
        cases.add(new Case("resolveSessionByTitle", "'50_ off'", () -> store.resolveSessionByTitle("50_ off"), returns(Optional.empty())));
        cases.add(new Case("getNextTitleInLineage", "'50% off'", () -> store.getNextTitleInLineage("50% off"), returns("50% off #3")));
        cases.add(new Case("getNextTitleInLineage", "'50_ off'", () -> store.getNextTitleInLineage("50_ off"), returns("50_ off")));
        cases.add(new Case("getNextTitleInLineage", "'my project'", () -> store.getNextTitleInLineage("my project"), returns("my project #5")));
        for (String sql : SQL_LOOKING) {
            cases.add(new Case("getSessionByTitle", describe(sql), () -> store.getSessionByTitle(sql), returns(Optional.empty())));
            cases.add(new Case("resolveSessionByTitle", describe(sql), () -> store.resolveSessionByTitle(sql), returns(Optional.empty())));
            cases.add(new Case("getNextTitleInLineage", describe(sql), () -> store.getNextTitleInLineage(sql), returns(sql)));
        }
        String tooLong = "t".repeat(101);
        cases.add(new Case("setSessionTitle", "101 characters", () -> store.setSessionTitle(LIVE, tooLong),
                rejectsWith(InvalidArgumentException.class, "Title too long (101 chars, max 100)")));
        cases.add(new Case("setSessionTitle", "101 emoji", () -> store.setSessionTitle(LIVE, "🚀".repeat(101)),
                rejectsWith(InvalidArgumentException.class, "Title too long (101 chars, max 100)")));
        cases.add(new Case("setSessionTitle", "another session's title", () -> store.setSessionTitle(LIVE, "100% done"),
                rejectsWith(InvalidArgumentException.class, "Title '100% done' is already in use by session " + HUNDRED_PERCENT)));
    }

    /** The reads and rewrites of schema 17 with bad arguments: refused before anything is written. */
    private void transcriptCases(List<Case> cases) {
        cases.add(new Case("replaceMessages", "null messages", () -> voidCall(() -> store.replaceMessages(LIVE, null, false)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("replaceMessages", "good, then a null message", () -> voidCall(() -> store.replaceMessages(LIVE,
                Arrays.asList(NewMessage.of("user", "one"), null), false)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("replaceMessages", "good, then structured content on a store kept at 6", () -> voidCall(() ->
                store.replaceMessages(LIVE, List.of(NewMessage.of("user", "one"), NewMessage.builder("user")
                        .parts(List.of(Map.of("type", "text", "text", "x"))).build()), false)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("replaceMessages", "only the live rows, on a store kept at 6", () -> voidCall(() ->
                store.replaceMessages(LIVE, List.of(NewMessage.of("user", "one")), true)), rejects(InvalidArgumentException.class)));
        cases.add(new Case("archiveAndCompact", "null messages", () -> store.archiveAndCompact(LIVE, null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("rewindToMessage", "a user message, on a store kept at 6", () -> store.rewindToMessage(LIVE, 12),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("hasPlatformMessageId", "null platform id", () -> store.hasPlatformMessageId(LIVE, null),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getAnchoredView", "a null role", () -> store.getAnchoredView(LIVE, 12, 5, 3, Arrays.asList("user", null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("getMessagesAsConversation", "null options", () -> store.getMessagesAsConversation(LIVE, null),
                rejects(InvalidArgumentException.class)));
        for (String sql : SQL_LOOKING) {
            cases.add(new Case("hasPlatformMessageId", "platform id " + describe(sql), () -> store.hasPlatformMessageId(LIVE, sql),
                    returns(false)));
            cases.add(new Case("getAnchoredView", "role " + describe(sql), () -> store.getAnchoredView(LIVE, 12, 0, 3, List.of(sql)),
                    satisfies("the anchor alone, no bookends", view -> ((AnchoredView) view).window().size() == 1
                            && ((AnchoredView) view).bookendStart().isEmpty() && ((AnchoredView) view).bookendEnd().isEmpty())));
        }
    }

    private void messageCases(List<Case> cases) {
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        Map<String, NewMessage> badMessages = new LinkedHashMap<>();
        badMessages.put("null message", null);
        badMessages.put("null role", NewMessage.of(null, "hello"));
        badMessages.put("blank role", NewMessage.of(BLANK, "hello"));
        badMessages.put("over-long role", NewMessage.of(OVER_LONG, "hello"));
        badMessages.put("over-long tool name", NewMessage.builder("tool").toolName(OVER_LONG).content("x").build());
        badMessages.put("tool calls that are not JSON", NewMessage.builder("assistant").toolCalls(ToolCalls.json(new Object())).build());
        badMessages.put("tool calls that contain themselves", NewMessage.builder("assistant").toolCalls(ToolCalls.json(cycle)).build());
        badMessages.put("reasoning details that are not JSON", NewMessage.builder("assistant").reasoningDetails(JsonValue.of(new Object())).build());
        badMessages.put("structured content on a store kept at 6",
                NewMessage.builder("user").parts(List.of(Map.of("type", "text", "text", "x"))).build());
        badMessages.put("reasoning content on a store kept at 6", NewMessage.builder("assistant").reasoningContent("r").build());
        badMessages.put("a platform message id on a store kept at 6", NewMessage.builder("user").content("x").platformMessageId("1").build());
        for (var bad : badMessages.entrySet()) {
            cases.add(new Case("appendMessage", bad.getKey(), () -> store.appendMessage(LIVE, bad.getValue()),
                    rejects(InvalidArgumentException.class)));
            // the bad message comes last: nothing of the good ones before it may be written
            cases.add(new Case("appendMessages", "good, good, then " + bad.getKey(), () -> store.appendMessages(LIVE,
                    Arrays.asList(NewMessage.of("user", "one"), NewMessage.of("assistant", "two"), bad.getValue())),
                    rejects(InvalidArgumentException.class)));
        }
        cases.add(new Case("appendMessage", "content over 64 MiB", () -> store.appendMessage(LIVE,
                NewMessage.of("user", "x".repeat(64 * 1024 * 1024 + 1))), rejects(InvalidArgumentException.class)));
        cases.add(new Case("appendMessages", "null list", () -> store.appendMessages(LIVE, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("appendMessages", "empty list", () -> store.appendMessages(LIVE, List.of()), returns(List.of())));

        cases.add(new Case("createSession", "null NewSession", () -> store.createSession(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "null source", () -> store.createSession("new-1", null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "blank source", () -> store.createSession("new-1", BLANK), rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "unknown parent", () -> store.createSession(NewSession.builder("new-1", "cli")
                .parentSessionId(UNKNOWN).build()), rejects(ConstraintViolationException.class)));
        cases.add(new Case("createSession", "SQL-looking parent", () -> store.createSession(NewSession.builder("new-1", "cli")
                .parentSessionId(DROP).build()), rejects(ConstraintViolationException.class)));
        cases.add(new Case("createSession", "blank parent", () -> store.createSession(NewSession.builder("new-1", "cli")
                .parentSessionId(BLANK).build()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "model config that is not JSON", () -> store.createSession(NewSession.builder("new-1", "cli")
                .modelConfig(new Object()).build()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("createSession", "existing id (first row wins)", () -> store.createSession(NewSession.builder(LIVE, "discord")
                .model("other").build()), returns(LIVE)));
        cases.add(new Case("ensureSession", "existing id (never overwrites)", () -> voidCall(() -> store.ensureSession(LIVE, "discord", "other")),
                returns(null)));
        cases.add(new Case("ensureSession", "blank source", () -> voidCall(() -> store.ensureSession("new-1", BLANK, null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("endSession", "null reason", () -> store.endSession(LIVE, null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("endSession", "blank reason", () -> store.endSession(LIVE, BLANK), rejects(InvalidArgumentException.class)));
        cases.add(new Case("endSession", "an ended session (the first end wins)", () -> store.endSession(CHAIN_ROOT, "cli_close"), returns(false)));
        cases.add(new Case("updateTokenCounts", "null usage", () -> voidCall(() -> store.updateTokenCounts(LIVE, null)),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "negative input tokens", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().inputTokens(-1).outputTokens(10).build())), rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "NaN estimated cost", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().inputTokens(10).estimatedCostUsd(Double.NaN).build())), rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "infinite actual cost", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().inputTokens(10).actualCostUsd(Double.POSITIVE_INFINITY).build())), rejects(InvalidArgumentException.class)));
        cases.add(new Case("updateTokenCounts", "over-long model", () -> voidCall(() -> store.updateTokenCounts(LIVE,
                TokenUsage.builder().inputTokens(10).model(OVER_LONG).build())), rejects(InvalidArgumentException.class)));
    }

    private void searchCases(List<Case> cases) {
        cases.add(new Case("searchMessages", "null SearchQuery", () -> store.searchMessages(null), rejects(InvalidArgumentException.class)));
        for (String nothing : Arrays.asList(NULL, EMPTY, BLANK)) {
            cases.add(new Case("searchMessages", "query " + describe(nothing), () -> store.searchMessages(SearchQuery.of(nothing)),
                    returns(List.of())));
        }
        cases.add(new Case("searchMessages", "limit -1", () -> store.searchMessages(SearchQuery.builder("docker").limit(-1).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchMessages", "offset -1", () -> store.searchMessages(SearchQuery.builder("docker").offset(-1).build()),
                rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchMessages", "a null source in the filter", () -> store.searchMessages(SearchQuery.builder("docker")
                .sourceFilter(Arrays.asList("cli", null)).build()), rejects(InvalidArgumentException.class)));
        cases.add(new Case("searchMessages", "an empty source filter matches nothing", () -> store.searchMessages(SearchQuery.builder("docker")
                .sourceFilter(List.of()).build()), returns(List.of())));
        cases.add(new Case("searchMessages", "over-long query", () -> store.searchMessages(SearchQuery.of("docker ".repeat(20_000))),
                satisfies("no error", hits -> hits instanceof List<?>)));
        cases.add(new Case("searchMessages", describe(DROP) + " finds the message quoting it",
                () -> ids(store.searchMessages(SearchQuery.builder(DROP).limit(100).build())),
                satisfies("the message quoting it among the hits", ids -> ((List<?>) ids).contains(literalMessageId))));
        for (String sql : SQL_LOOKING.subList(1, SQL_LOOKING.size())) {
            // these characters are not words: at most the one message that contains them may be found, never everything
            cases.add(new Case("searchMessages", describe(sql), () -> ids(store.searchMessages(SearchQuery.builder(sql).limit(1000).build())),
                    satisfies("nothing, or only the message containing it", ids -> Set.of(percentMessageId).containsAll((List<?>) ids))));
            cases.add(new Case("searchMessages", "source filter " + describe(sql), () -> store.searchMessages(SearchQuery.builder("docker")
                    .sourceFilter(List.of(sql)).build()), returns(List.of())));
            cases.add(new Case("searchMessages", "role filter " + describe(sql), () -> store.searchMessages(SearchQuery.builder("docker")
                    .roleFilter(List.of(sql)).build()), returns(List.of())));
        }
    }

    private void lifecycleCases(List<Case> cases) {
        cases.add(new Case("path", "no arguments", () -> store.path(), returns(Optional.of(db))));
        cases.add(new Case("isReadOnly", "no arguments", () -> store.isReadOnly(), returns(false)));
        cases.add(new Case("isImmutableSnapshot", "no arguments", () -> store.isImmutableSnapshot(), returns(false)));
        cases.add(new Case("checkpoint", "no arguments", () -> voidCall(() -> store.checkpoint()), returns(null)));
        cases.add(new Case("vacuum", "no arguments (content unchanged)", () -> store.vacuum().bytesReclaimed(),
                satisfies("a byte count >= 0", bytes -> (Long) bytes >= 0), true));
        cases.add(new Case("inWriteTransaction", "null work", () -> store.inWriteTransaction(null), rejects(InvalidArgumentException.class)));
        cases.add(new Case("inWriteTransaction", "work that fails after writing", () -> store.inWriteTransaction(dsl -> {
            dsl.update(SESSIONS).set(SESSIONS.TITLE, (String) null).execute();
            throw new IllegalStateException("the application changed its mind");
        }), rejects(IllegalStateException.class)));
        cases.add(new Case("dsl", "an UPDATE through the read-only context", () -> store.dsl().update(SESSIONS)
                .set(SESSIONS.TITLE, (String) null).execute(),
                rejects(HermesStateException.class)));
        cases.add(new Case("dsl", "DROP TABLE through the read-only context", () -> store.dsl().execute("DROP TABLE sessions"),
                rejects(HermesStateException.class)));
    }

    // ------------------------------------------------------------------ SQL-looking values stored literally

    @TestFactory
    @Order(2)
    Stream<DynamicTest> sqlLookingValuesAreStoredAndReadBackLiterally() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < SQL_LOOKING.size(); i++) {
            String value = SQL_LOOKING.get(i);
            String id = "literal " + i + " " + value;
            String parent = value + i;
            tests.add(DynamicTest.dynamicTest("write " + describe(value), () -> {
                Map<String, Long> before = StoreFiles.rowCounts(db);
                store.ensureSession(parent, value, value);
                store.createSession(NewSession.builder(id, value).model(value).systemPrompt(value).userId(value)
                        .parentSessionId(parent).build());
                long messageId = store.appendMessage(id, NewMessage.builder("assistant").content(value).toolName(value)
                        .toolCallId(value).finishReason(value).reasoning(value).toolCalls(ToolCalls.json(List.of(Map.of("id", value)))).build());
                store.updateSystemPrompt(id, value + " prompt");
                store.updateTokenCounts(id, TokenUsage.builder().inputTokens(1).model(value).costStatus(value)
                        .billingProvider(value).build());
                assertTrue(store.setSessionTitle(id, "title " + value));
                assertTrue(store.endSession(id, value));

                Session session = store.getSession(id).orElseThrow();
                assertEquals(List.of(id, value, value, value, value + " prompt", parent, value, value, value, "title " + value, 1L, 1L),
                        List.of(session.id(), session.source(), session.userId(), session.model(), session.systemPrompt(),
                                session.parentSessionId(), session.endReason(), session.costStatus(), session.billingProvider(),
                                session.title(), session.messageCount(), session.toolCallCount()));
                assertEquals(Optional.of(id), store.getSessionByTitle("title " + value).map(Session::id));
                assertEquals(Optional.of(id), store.resolveSessionByTitle("title " + value));
                assertEquals(Optional.of(id), store.resolveSessionId(id));
                Message message = store.getMessages(id).get(0);
                assertEquals(List.of(messageId, value, value, value, value, value),
                        List.of(message.id(), message.text(), message.toolName(), message.toolCallId(), message.finishReason(),
                                message.reasoning()));
                assertEquals(List.of(Map.of("id", value)), message.toolCalls().value());
                assertEquals(value, store.getSession(parent).orElseThrow().source());

                Map<String, Long> after = StoreFiles.rowCounts(db);
                assertEquals(before.get("sessions") + 2, after.get("sessions"), "two sessions more, nothing dropped");
                assertEquals(before.get("messages") + 1, after.get("messages"), "one message more");
                assertEquals(before.keySet(), after.keySet(), "the same tables");
                assertEquals("ok", integrity());
            }));
        }
        return tests.stream();
    }

    // ------------------------------------------------------------------ read-only and closed stores, coverage

    @Test
    void writesThroughAReadOnlyStoreAreRefusedAndTheFileIsUntouched() throws Exception {
        String sha = Fixtures.sha256(db);
        try (StateRepository readOnly = StateRepository.openReadOnly(db)) {
            List<Executable> writes = List.of(
                    () -> readOnly.createSession("ro-1", "cli"),
                    () -> readOnly.ensureSession("ro-1", "cli", null),
                    () -> readOnly.appendMessage(LIVE, NewMessage.of("user", "x")),
                    () -> readOnly.appendMessages(LIVE, List.of(NewMessage.of("user", "x"))),
                    () -> readOnly.endSession(LIVE, "cli_close"),
                    () -> readOnly.reopenSession(CHAIN_ROOT),
                    () -> readOnly.updateSystemPrompt(LIVE, "x"),
                    () -> readOnly.updateTokenCounts(LIVE, TokenUsage.builder().inputTokens(1).build()),
                    () -> readOnly.clearMessages(LIVE),
                    () -> readOnly.setSessionTitle(LIVE, "x"),
                    () -> readOnly.deleteSession(LIVE),
                    () -> readOnly.pruneSessions(Duration.ZERO, null).count(),
                    () -> readOnly.inWriteTransaction(dsl -> dsl.update(SESSIONS).set(SESSIONS.TITLE, (String) null).execute()),
                    () -> readOnly.dsl().update(SESSIONS).set(SESSIONS.TITLE, (String) null).execute(),
                    () -> readOnly.vacuum());
            for (Executable write : writes) {
                assertInstanceOf(HermesStateException.class, assertThrows(RuntimeException.class, write));
            }
            assertEquals(Optional.of(LIVE), readOnly.getSession(LIVE).map(Session::id));
        }
        assertEquals(sha, Fixtures.sha256(db));
    }

    @Test
    void aClosedStoreRefusesEveryCallWithATypedError() {
        StateRepository closed = StateRepository.open(db);
        closed.close();
        closed.close(); // idempotent
        assertThrows(StateIOException.class, () -> closed.getSession(LIVE));
        assertThrows(StateIOException.class, () -> closed.appendMessage(LIVE, NewMessage.of("user", "x")));
        assertThrows(StateIOException.class, () -> closed.listSessionsRich(ListSessionsQuery.defaults()));
    }

    @Test
    void openingWithoutAPathIsATypedError() {
        assertThrows(InvalidArgumentException.class, () -> StateRepository.open((Path) null));
        assertThrows(InvalidArgumentException.class, () -> StateRepository.openReadOnly(null));
    }

    /** The tables above must name every public operation: a new one fails here until its bad input is covered. */
    @Test
    void everyPublicOperationIsCovered() {
        Set<String> covered = new TreeSet<>();
        unchangedCases().forEach(c -> covered.add(c.operation));
        // exercised by the other tests of this class
        covered.addAll(List.of("close", "open", "openReadOnly", "ensureSession", "createSession"));
        // no input to check: the default location, the builder's entry point, the question whether
        // a text is a PostgreSQL URL (false for anything else, null included), what the store is, whose rules it
        // follows, the working directories (a flag only), and the store's counts
        covered.addAll(List.of("defaultPath", "builder", "isUrl", "describe", "schemaRules", "distinctSessionCwds", "getStats"));
        Set<String> operations = Arrays.stream(StateRepository.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic())
                .map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        operations.removeAll(covered);
        assertEquals(Set.of(), operations, "public operations without bad-input cases");
    }

    // ------------------------------------------------------------------ the table's machinery

    /**
     * One call with its input and what it must give. {@code mayRewriteIndex}: the call may rewrite the
     * FTS5 index's storage (VACUUM merges it first) but not what it says, so its shadow tables are left
     * out of the fingerprint and FTS5's integrity-check vouches for the index instead.
     */
    private record Case(String operation, String input, ThrowingSupplier<Object> call, Outcome outcome, boolean mayRewriteIndex) {
        Case(String operation, String input, ThrowingSupplier<Object> call, Outcome outcome) {
            this(operation, input, call, outcome, false);
        }

        @Override
        public String toString() {
            return operation + "(" + input + ")";
        }
    }

    @FunctionalInterface
    private interface Outcome {
        void check(ThrowingSupplier<Object> call, String what) throws Throwable;
    }

    private static Outcome rejects(Class<? extends RuntimeException> type) {
        return (call, what) -> assertThrows(type, call::get, what + " must fail with " + type.getSimpleName());
    }

    private static Outcome rejectsWith(Class<? extends RuntimeException> type, String message) {
        return (call, what) -> assertEquals(message, assertThrows(type, call::get, what).getMessage(), what);
    }

    private static Outcome returns(Object expected) {
        return (call, what) -> assertEquals(expected, call.get(), what);
    }

    private static Outcome satisfies(String description, Predicate<Object> check) {
        return (call, what) -> {
            Object result = call.get();
            assertTrue(check.test(result), what + " must give " + description + ", gave " + result);
        };
    }

    private static Object voidCall(Runnable call) {
        call.run();
        return null;
    }

    private static List<Long> ids(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::id).toList();
    }

    private static String describe(String value) {
        if (value == null) {
            return "null";
        }
        if (value.length() > 40) {
            return "'" + value.substring(0, 10) + "...' (" + value.length() + " chars)";
        }
        return "'" + value.replace("\t", "\\t") + "'";
    }

    private String integrity() throws Exception {
        try (Connection connection = SqliteFiles.readOnly(db)) {
            return StoreFiles.integrityCheck(connection);
        }
    }

    /** What a reader can see of the file: a sha256 of the logical dump and every table's row count. */
    private record Fingerprint(String dumpSha256, Map<String, Long> rowCounts) {
        static Fingerprint of(Path db, boolean withIndexStorage) throws Exception {
            Map<String, Long> counts = StoreFiles.rowCounts(db);
            if (!withIndexStorage) {
                counts.keySet().removeIf(table -> table.startsWith("messages_fts_"));
            }
            return new Fingerprint(StoreFiles.logicalDumpSha256(db, withIndexStorage), counts);
        }
    }
}
