package dev.hermes.state.core;

import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RichSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The preview of a listed session, on every listing that shows one (the rich listing and a cron
 * job's runs share one definition): the agent's {@code list_sessions_rich} and
 * {@code list_cron_job_runs} on the same first user messages gave exactly these previews (its
 * SessionDB on a fresh file, run once; the values are written here). Subclasses give the engine.
 */
abstract class SessionPreviewContract {
    private static final String ROCKET = "\uD83D\uDE80";

    /** A session's first user message (null: the session has none) and the preview the agent shows for it. */
    private record Case(@Nullable MessageContent content, String preview) {
        static Case text(String content, String preview) {
            return new Case(new MessageContent.Text(content), preview);
        }
    }

    private static final List<Case> CASES = List.of(
            new Case(null, ""),
            Case.text("", ""),
            Case.text("   ", ""),
            Case.text("\n\r\n", ""),
            // at and around the cut: 60 shown, 63 read
            Case.text("x".repeat(60), "x".repeat(60)),
            Case.text("x".repeat(61), "x".repeat(60) + "..."),
            Case.text("x".repeat(62), "x".repeat(60) + "..."),
            Case.text("x".repeat(63), "x".repeat(60) + "..."),
            Case.text("x".repeat(64), "x".repeat(60) + "..."),
            // stripped after the cut: the 63 read hold the 3 spaces and 60 y, so no "..."
            Case.text("   " + "y".repeat(60), "y".repeat(60)),
            Case.text("z".repeat(62) + " tail", "z".repeat(60) + "..."),
            Case.text("line one\nline two\r\nline three", "line one line two  line three"),
            Case.text("a".repeat(60) + "\n", "a".repeat(60)),
            Case.text("a".repeat(59) + "\n\nb", "a".repeat(59) + " ..."),
            // Python's whitespace, beyond ASCII and including the separators \x1c-\x1f
            Case.text("\t\u00a0\u3000spaced\u2003\u0085", "spaced"),
            Case.text("\u001c\u001d\u001e\u001fsep\u001f", "sep"),
            // characters are code points: an emoji counts once, a combining accent once more
            Case.text(ROCKET.repeat(59), ROCKET.repeat(59)),
            Case.text(ROCKET.repeat(60), ROCKET.repeat(60)),
            Case.text(ROCKET.repeat(61), ROCKET.repeat(60) + "..."),
            Case.text("a".repeat(59) + "\uD83E\uDD80", "a".repeat(59) + "\uD83E\uDD80"),
            Case.text("e\u0301".repeat(31), "e\u0301".repeat(30) + "..."),
            Case.text("数据库".repeat(20), "数据库".repeat(20)),
            Case.text("数据库".repeat(21), "数据库".repeat(20) + "..."),
            Case.text("日本語のテキスト、句読点。".repeat(6), "日本語のテキスト、句読点。".repeat(4) + "日本語のテキスト..."),
            // structured content (a list of parts, a dict) previews as nothing
            new Case(new MessageContent.Structured(List.of(Map.of("type", "text", "text", "Which nebula is this?"),
                    Map.of("type", "image_url", "image_url", Map.of("url", "https://example.org/n.png")))), ""),
            new Case(new MessageContent.Structured(Map.of("type", "text", "text", "a dict")), ""));

    /** A store of today's schema, empty. */
    abstract StateRepository open() throws Exception;

    @Test
    void everyListingPreviewsTheFirstUserMessageAsTheAgentDoes() throws Exception {
        Map<String, String> expected = new LinkedHashMap<>();
        try (StateRepository store = open()) {
            for (int i = 0; i < CASES.size(); i++) {
                Case c = CASES.get(i);
                String id = String.format("cron_job1_%03d", i);
                store.createSession(id, "cron");
                store.appendMessage(id, NewMessage.of("system", "a system prompt is never the preview"));
                if (c.content() != null) {
                    store.appendMessage(id, NewMessage.builder("user").content(c.content()).build());
                    store.appendMessage(id, NewMessage.of("user", "a later user message is not the preview"));
                }
                expected.put(id, c.preview());
            }
            assertEquals(expected, previews(store.listSessionsRich(ListSessionsQuery.builder().limit(1000).build())));
            assertEquals(expected, previews(store.listCronJobRuns("job1", 1000, 0)));
        }
    }

    /** Preview by session id, in the order of {@link #CASES} (the ids sort so). */
    private static Map<String, String> previews(List<RichSession> rows) {
        List<RichSession> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> a.session().id().compareTo(b.session().id()));
        return sorted.stream().collect(Collectors.toMap(row -> row.session().id(), RichSession::preview,
                (a, b) -> a, LinkedHashMap::new));
    }
}
