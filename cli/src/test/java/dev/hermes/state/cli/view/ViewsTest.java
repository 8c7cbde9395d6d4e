package dev.hermes.state.cli.view;

import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.Session;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What people see: the views rendered from records, with a fixed clock and zone. */
class ViewsTest {
    private static final Instant NOW = Instant.parse("2026-03-15T12:00:00Z");
    private static final Times TIMES = new Times(NOW, ZoneOffset.UTC);

    private static Session session(String id, String title, String parent, String started, String ended, String reason,
                                   long messages) {
        return new Session(id, "cli", null, null, null, null, parent, Instant.parse(started),
                ended == null ? null : Instant.parse(ended), reason, messages, 0, 0, 0, 0, 0, 0, null, null, null,
                null, null, null, null, null, title);
    }

    @Test
    void aMessagesMultimodalContentShowsItsTextsAndNamesItsOtherParts() {
        assertEquals("what is this?\n[image_url]", SessionView.displayText(MessageContent.parts(List.of(
                Map.of("type", "text", "text", "what is this?"), Map.of("type", "image_url", "image_url", Map.of("url", "u"))))));
        assertEquals("plain", SessionView.displayText(MessageContent.text("plain")));
        assertEquals("{\"parts\": []}", SessionView.displayText(MessageContent.of(Map.of("parts", List.of()))));
        assertEquals("", SessionView.displayText(null));
    }

    @Test
    void theSessionListIsATableWithALegendForChains() {
        List<RichSession> rows = List.of(
                new RichSession(session("s2", "数据库迁移", null, "2026-03-14T09:00:00Z", null, null, 2), "迁移完成了吗？",
                        Instant.parse("2026-03-15T11:00:00Z"), null),
                new RichSession(session("tip", "my project #4", "l3", "2026-03-10T09:00:00Z", null, null, 12), "Deploy it",
                        Instant.parse("2026-03-13T12:00:00Z"), "root"));
        assertEquals(List.of(
                "ID   TITLE            SOURCE  MSGS  STARTED           LAST ACTIVE  PREVIEW",
                "s2   数据库迁移       cli        2  2026-03-14 09:00  1 hour ago   迁移完成了吗？",
                "tip  ⛓ my project #4  cli       12  2026-03-10 09:00  2 days ago   Deploy it",
                "",
                "⛓ = a compression chain, shown as its newest session (started = when the chain began; see it whole "
                        + "with: sessions lineage ID)"), SessionListView.render(rows, TIMES));
        assertEquals(List.of("No sessions."), SessionListView.render(List.of(), TIMES));
    }

    @Test
    void theLineageIsATreeWithTheTipAndTheRequestedSessionMarked() {
        List<LineageNode> tree = List.of(
                new LineageNode(session("l2", "my project #2", "root", "2026-03-10T11:30:00Z", "2026-03-10T12:00:00Z", "compression", 2), 1),
                new LineageNode(session("root", "my project", null, "2026-03-10T09:00:00Z", "2026-03-10T11:29:00Z", "compression", 5), 0),
                new LineageNode(session("d", null, "root", "2026-03-10T09:05:00Z", "2026-03-10T09:10:00Z", "delegate_complete", 2), 1),
                new LineageNode(session("tip", "my project #3", "l2", "2026-03-10T12:01:00Z", null, null, 1), 2));
        assertEquals(List.of(
                "my project  root  cli  5 msgs  started 2026-03-10 09:00  ended: compression",
                "├─ (untitled)  d  cli  2 msgs  started 2026-03-10 09:05  ended: delegate_complete",
                "└─ my project #2  l2  cli  2 msgs  started 2026-03-10 11:30  ended: compression  ◀ requested",
                "   └─ my project #3  tip  cli  1 msg  started 2026-03-10 12:01  live  ← tip of the chain"),
                LineageView.render(tree, "l2", "tip", TIMES, Highlighter.markers()));
    }

    @Test
    void searchHitsAreNumberedWithTheirPlaceAndSnippet() {
        SearchHit docker = new SearchHit(30, "s1", "user", "How do I deploy with >>>Docker<<<?",
                Instant.parse("2026-03-12T12:00:00Z"), null, "cli", null, Instant.parse("2026-03-12T11:59:00Z"), List.of());
        assertEquals(List.of(
                "1. s1 · cli · user · 3 days ago (2026-03-12 12:00)",
                "   How do I deploy with >>>Docker<<<?",
                "",
                "1 hit for 'docker'."), SearchView.render("docker", List.of(docker), 0, TIMES, Highlighter.markers()));
        assertEquals(List.of(
                "1. s1 · cli · user · 3 days ago (2026-03-12 12:00)",
                "   How do I deploy with \u001B[1;33mDocker\u001B[0m?",
                "",
                "1 hit for 'docker'."), SearchView.render("docker", List.of(docker), 0, TIMES, Highlighter.ansi()));

        SearchHit chinese = new SearchHit(21, "s2", "assistant", "先做数据库迁移评估：导出表结构",
                Instant.parse("2026-03-15T11:58:00Z"), "terminal", "telegram", null, Instant.parse("2026-03-15T11:00:00Z"),
                List.of());
        assertEquals(List.of(
                "11. s2 · telegram · assistant (terminal) · 2 min ago (2026-03-15 11:58)",
                "    先做数据库>>>迁移<<<评估：导出表结构",
                "",
                "1 hit for '迁移' (from #11)."), SearchView.render("迁移", List.of(chinese), 10, TIMES, Highlighter.markers()),
                "a plain (CJK fallback) snippet gets its matches marked too");
        assertEquals(List.of("No messages match 'nothing'."),
                SearchView.render("nothing", List.of(), 0, TIMES, Highlighter.markers()));
    }

    @Test
    void toolCallsReadAsFunctionCalls() {
        assertEquals(List.of("terminal({\"command\": \"ls -la\"})", "read_file()"), SessionView.toolCalls(List.of(
                Map.of("id", "c1", "type", "function", "function", Map.of("name", "terminal", "arguments", "{\"command\": \"ls -la\"}")),
                Map.of("id", "c2", "type", "function", "function", Map.of("name", "read_file")))));
        assertEquals(List.of("{\"name\":\"x\"}"), SessionView.toolCalls(Map.of("name", "x")));
        assertEquals(List.of(), SessionView.toolCalls(null));
    }

    @Test
    void longTextIsCutWithANote() {
        assertEquals("abc", SessionView.cut("abc", 3));
        assertEquals("ab… (1 more characters; --full shows all)", SessionView.cut("abc", 2));
        assertEquals("🚀🚀… (1,000 more characters; --full shows all)", SessionView.cut("🚀".repeat(1002), 2));
    }
}
