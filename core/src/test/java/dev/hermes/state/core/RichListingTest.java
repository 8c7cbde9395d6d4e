package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** docs/behaviour.md#rich-listing: previews, last activity, filters, projection, keyset pages. */
class RichListingTest extends FreshStoreTest {
    private String previewOf(String... userContents) {
        String id = "p" + System.nanoTime();
        store.createSession(id, "cli");
        store.appendMessage(id, NewMessage.of("system", "system prompt text is never a preview"));
        for (String content : userContents) {
            store.appendMessage(id, NewMessage.builder("user").content(content).build());
        }
        return store.listSessionsRich(ListSessionsQuery.builder().limit(1).build()).get(0).preview();
    }

    @Test
    void previewKeepsUpTo60CharactersAndMarksLongerOnes() {
        assertEquals("x".repeat(60), previewOf("x".repeat(60)));
        assertEquals("x".repeat(60) + "...", previewOf("x".repeat(61)));
        assertEquals("x".repeat(60) + "...", previewOf("x".repeat(500)));
    }

    @Test
    void previewReads63CharactersBeforeTrimming() {
        // 10 spaces + 60 letters: only 53 letters are among the first 63 characters, so no "..."
        assertEquals("y".repeat(53), previewOf(" ".repeat(10) + "y".repeat(60)));
        // 62 letters then a space then more: read 63, trim the trailing space, 62 > 60
        assertEquals("z".repeat(60) + "...", previewOf("z".repeat(62) + " tail"));
    }

    @Test
    void previewTurnsLineBreaksIntoSpacesAndTrimsPythonWhitespace() {
        assertEquals("first line second line", previewOf("\nfirst line\nsecond line\r\n"));
        assertEquals("a  b", previewOf("a\r\nb"));
        assertEquals("no-break", previewOf("\u00a0\u3000no-break\u2003\u0085"));
    }

    @Test
    void previewCountsCodePointsNotUtf16Units() {
        String rocket = "\uD83D\uDE80";
        assertEquals(rocket.repeat(60), previewOf(rocket.repeat(60)));
        assertEquals(rocket.repeat(60) + "...", previewOf(rocket.repeat(61)));
        assertEquals("数据库".repeat(20) + "...", previewOf("数据库".repeat(30)));
    }

    @Test
    void previewIsTheFirstUserMessageWithContent() throws Exception {
        store.createSession("s1", "cli");
        store.appendMessage("s1", NewMessage.of("assistant", "assistant speaks first"));
        store.appendMessage("s1", NewMessage.builder("user").build()); // user message without content
        store.appendMessage("s1", NewMessage.of("user", "the real question"));
        store.appendMessage("s1", NewMessage.of("user", "a later question"));
        store.createSession("empty", "cli");
        store.createSession("only-assistant", "cli");
        store.appendMessage("only-assistant", NewMessage.of("assistant", "hello"));
        List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.defaults());
        assertEquals(List.of("only-assistant", "empty", "s1"), rows.stream().map(row -> row.session().id()).toList());
        assertEquals("", rows.get(0).preview());
        assertEquals("", rows.get(1).preview());
        assertEquals("the real question", rows.get(2).preview());
    }

    @Test
    void lastActiveIsTheLatestMessageElseTheStart() throws Exception {
        store.createSession("quiet", "cli");
        store.createSession("busy", "cli");
        store.appendMessage("busy", NewMessage.of("user", "one"));
        execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('busy', 'user', 'future', 1900000000.25)");
        store.appendMessage("busy", NewMessage.of("user", "two"));
        List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.defaults());
        assertEquals(Instant.parse("2030-03-17T17:46:40.250Z"), rows.get(0).lastActive());
        assertEquals(TestStores.EPOCH, rows.get(1).lastActive());
        assertEquals(TestStores.EPOCH, rows.get(1).session().startedAt());
    }

    @Test
    void filtersBySourceExcludedSourcesAndChildren() {
        store.createSession("cli-root", "cli");
        store.createSession(NewSession.builder("cli-child", "cli").parentSessionId("cli-root").build());
        store.createSession("slack-root", "slack");
        store.createSession("discord-root", "discord");
        assertEquals(List.of("discord-root", "slack-root", "cli-root"), ids(ListSessionsQuery.defaults()));
        assertEquals(List.of("discord-root", "slack-root", "cli-child", "cli-root"),
                ids(ListSessionsQuery.builder().includeChildren(true).build()));
        assertEquals(List.of("cli-root"), ids(ListSessionsQuery.builder().source("cli").build()));
        assertEquals(List.of("discord-root", "slack-root", "cli-root"), ids(ListSessionsQuery.builder().source("").build()));
        assertEquals(List.of("cli-root"), ids(ListSessionsQuery.builder().excludeSources(List.of("slack", "discord")).build()));
        assertEquals(List.of("discord-root", "slack-root", "cli-root"), ids(ListSessionsQuery.builder().excludeSources(List.of()).build()));
        assertEquals(List.of("slack-root"), ids(ListSessionsQuery.builder().limit(1).offset(1).build()));
        assertEquals(List.of(), ids(ListSessionsQuery.builder().limit(0).build()));
        // any limit is honoured, the largest one too (no cap, no overflow of the one-extra-row read)
        assertEquals(List.of("discord-root", "slack-root", "cli-root"), ids(ListSessionsQuery.builder().limit(Integer.MAX_VALUE).build()));
        assertEquals(List.of("slack-root", "cli-root"), ids(ListSessionsQuery.builder().limit(Integer.MAX_VALUE).offset(1).build()));
        Page<RichSession> whole = store.listSessionsRichPage(ListSessionsQuery.builder().limit(Integer.MAX_VALUE).build(), null);
        assertEquals(3, whole.items().size());
        assertEquals(Optional.empty(), whole.nextCursor());
        assertThrows(InvalidArgumentException.class, () -> store.listSessionsRich(ListSessionsQuery.builder().limit(-1).build()));
        assertThrows(InvalidArgumentException.class, () -> store.listSessionsRich(ListSessionsQuery.builder().offset(-5).build()));
        assertThrows(InvalidArgumentException.class, () -> store.listSessionsRich(ListSessionsQuery.builder().excludeSources(List.of(" ")).build()));
        List<String> withNull = new ArrayList<>(List.of("cli"));
        withNull.add(null);
        assertEquals("excludeSources must not contain null, got [cli, null]", assertThrows(InvalidArgumentException.class,
                () -> ListSessionsQuery.builder().excludeSources(withNull).build()).getMessage());
        assertEquals(List.of("discord-root", "slack-root", "cli-root"), ids(ListSessionsQuery.builder().excludeSources(null).build()));
    }

    @Test
    void compressionRootsAreProjectedOntoTheirTips() throws Exception {
        store.createSession(NewSession.builder("root", "cli").model("model-root").systemPrompt("root prompt").userId("u1").build());
        store.appendMessage("root", NewMessage.of("user", "how do I migrate the database?"));
        store.updateTokenCounts("root", TokenUsage.builder().inputTokens(100).build());
        execute("UPDATE sessions SET title = 'root title' WHERE id = 'root'");
        store.endSession("root", "compression");
        store.createSession(NewSession.builder("middle", "cli").parentSessionId("root").build());
        store.appendMessage("middle", NewMessage.of("user", "middle question"));
        store.endSession("middle", "compression");
        store.createSession(NewSession.builder("tip", "cli").parentSessionId("middle").model("model-tip").systemPrompt("tip prompt").build());
        store.appendMessage("tip", NewMessage.of("user", "continuing after compression"));
        store.appendMessage("tip", NewMessage.builder("assistant").content("ok").toolCalls(ToolCalls.json(List.of(java.util.Map.of("id", "c")))).build());
        execute("UPDATE sessions SET title = 'tip title' WHERE id = 'tip'");
        store.createSession("bare-root", "cli");
        store.endSession("bare-root", "compression");

        List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.defaults());
        assertEquals(2, rows.size());
        RichSession bare = rows.get(0);
        assertEquals("bare-root", bare.session().id());
        assertNull(bare.lineageRootId());
        assertEquals("compression", bare.session().endReason());

        RichSession projected = rows.get(1);
        Session root = store.getSession("root").orElseThrow();
        Session tip = store.getSession("tip").orElseThrow();
        Session shown = projected.session();
        assertEquals("root", projected.lineageRootId());
        // taken from the tip
        assertEquals("tip", shown.id());
        assertEquals(tip.endedAt(), shown.endedAt());
        assertNull(shown.endReason());
        assertEquals(2, shown.messageCount());
        assertEquals(1, shown.toolCallCount());
        assertEquals("tip title", shown.title());
        assertEquals("model-tip", shown.model());
        assertEquals("tip prompt", shown.systemPrompt());
        assertEquals("continuing after compression", projected.preview());
        assertEquals(store.getMessages("tip").get(1).timestamp(), projected.lastActive());
        // kept from the root
        assertEquals(root.startedAt(), shown.startedAt());
        assertEquals("u1", shown.userId());
        assertEquals(100, shown.inputTokens());
        assertEquals("cli", shown.source());

        List<RichSession> unprojected = store.listSessionsRich(ListSessionsQuery.builder().projectCompressionTips(false).build());
        assertEquals("root", unprojected.get(1).session().id());
        assertEquals("how do I migrate the database?", unprojected.get(1).preview());
        assertNull(unprojected.get(1).lineageRootId());
        List<RichSession> withChildren = store.listSessionsRich(ListSessionsQuery.builder().includeChildren(true).build());
        assertEquals(List.of("bare-root", "tip", "middle", "root"), withChildren.stream().map(row -> row.session().id()).toList());
        assertEquals(4, withChildren.stream().filter(row -> row.lineageRootId() == null).count());
    }

    @Test
    void keysetPagesFollowStartThenIdAndAgreeWithOffsetPages() throws Exception {
        for (int i = 0; i < 23; i++) {
            store.createSession(String.format("s%02d", i), i % 3 == 0 ? "slack" : "cli");
        }
        // Three sessions with the very same start, inserted in the opposite order of their ids:
        // keyset pages order ties by id (descending) across page borders.
        store.createSession("tie-c", "cli");
        store.createSession("tie-b", "cli");
        store.createSession("tie-a", "cli");
        execute("UPDATE sessions SET started_at = (SELECT started_at FROM sessions WHERE id = 's10') WHERE id LIKE 'tie-%'");
        for (ListSessionsQuery.Builder builder : List.of(ListSessionsQuery.builder(), ListSessionsQuery.builder().source("cli"))) {
            List<Session> all = store.searchSessions(new SearchSessionsQuery(builder.build().source(), 100, 0));
            List<String> expected = all.stream()
                    .sorted(java.util.Comparator.comparing(Session::startedAt).thenComparing(Session::id).reversed())
                    .map(Session::id).toList();
            List<String> byCursor = new ArrayList<>();
            Optional<String> cursor = Optional.empty();
            int pages = 0;
            do {
                Page<RichSession> page = store.listSessionsRichPage(builder.limit(4).offset(99).build(), cursor.orElse(null));
                page.items().forEach(row -> byCursor.add(row.session().id()));
                cursor = page.nextCursor();
                pages++;
            } while (cursor.isPresent());
            assertEquals(expected, byCursor);
            assertEquals((expected.size() + 3) / 4, pages);
            // Offset pages (Hermes' order: started_at only) hold the same sessions, each exactly once.
            List<String> byOffset = new ArrayList<>();
            for (int offset = 0; offset < expected.size(); offset += 4) {
                store.listSessionsRich(builder.limit(4).offset(offset).build()).forEach(row -> byOffset.add(row.session().id()));
            }
            assertEquals(expected.size(), byOffset.size());
            assertEquals(new java.util.HashSet<>(expected), new java.util.HashSet<>(byOffset));
        }
        assertEquals(26, store.listSessionsRich(ListSessionsQuery.builder().limit(100).build()).size());
        assertThrows(InvalidArgumentException.class, () -> store.listSessionsRichPage(ListSessionsQuery.defaults(), "bm90IGEgY3Vyc29y"));
        assertThrows(InvalidArgumentException.class, () -> store.listSessionsRichPage(ListSessionsQuery.builder().limit(0).build(), null));
    }

    private List<String> ids(ListSessionsQuery query) {
        return store.listSessionsRich(query).stream().map(row -> row.session().id()).toList();
    }
}
