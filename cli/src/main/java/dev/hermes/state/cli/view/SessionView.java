package dev.hermes.state.cli.view;

import dev.hermes.state.cli.json.Json;
import dev.hermes.state.cli.text.DisplayWidth;
import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.ToolCalls;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One session: its columns as labelled lines, then its messages in order with their tool calls. */
public final class SessionView {
    /** Longest message text shown unless the whole text is asked for. */
    public static final int DEFAULT_MAX_CHARS = 1_000;
    private static final String INDENT = "    ";

    private SessionView() {
    }

    /**
     * The session's header and conversation as lines.
     *
     * @param maxChars longest message text shown (code points), or {@code Integer.MAX_VALUE}
     */
    public static List<String> render(Session session, List<Message> messages, Times times, Highlighter style, int maxChars) {
        List<String> lines = new ArrayList<>(header(session, times, style));
        lines.add("");
        long hidden = messages.stream().filter(message -> !message.active()).count();
        lines.add(style.bold("Messages (" + messages.size() + (hidden == 0 ? "" : ", " + hidden + " hidden") + ")"));
        for (Message message : messages) {
            lines.add(messageHeading(message, times, style));
            if (message.reasoning() != null && !message.reasoning().isBlank()) {
                lines.add(INDENT + style.dim("(reasoning) " + Table.singleLine(cut(message.reasoning(), 200))));
            }
            String text = displayText(message.content());
            if (!text.isEmpty()) {
                for (String line : cut(text, maxChars).split("\\R", -1)) {
                    lines.add(INDENT + line);
                }
            }
            ToolCalls stored = message.toolCalls();
            for (String call : toolCalls(stored == null ? null : stored.value())) {
                lines.add(INDENT + "→ " + call);
            }
        }
        return lines;
    }

    public static List<String> header(Session s, Times times, Highlighter style) {
        List<String> lines = new ArrayList<>();
        lines.add(style.bold("Session " + s.id()) + (s.title() == null ? "" : "  \"" + s.title() + "\""));
        Table table = Table.withColumns(2);
        table.row("source", s.source() + (s.userId() == null ? "" : "  (user " + s.userId() + ")"));
        if (s.model() != null) {
            table.row("model", s.model());
        }
        table.row("started", times.both(s.startedAt()));
        table.row("ended", s.endedAt() == null ? "no (live)"
                : times.both(s.endedAt()) + (s.endReason() == null ? "" : ", " + s.endReason()));
        if (s.parentSessionId() != null) {
            table.row("parent", s.parentSessionId());
        }
        table.row("messages", s.messageCount() + " (" + s.toolCallCount() + (s.toolCallCount() == 1 ? " tool call)" : " tool calls)"));
        table.row("tokens", String.format(Locale.ROOT, "in %,d · out %,d · cache read %,d · cache write %,d · reasoning %,d",
                s.inputTokens(), s.outputTokens(), s.cacheReadTokens(), s.cacheWriteTokens(), s.reasoningTokens()));
        String cost = cost(s);
        if (!cost.isEmpty()) {
            table.row("cost", cost);
        }
        if (s.systemPrompt() != null && !s.systemPrompt().isBlank()) {
            table.row("system prompt", DisplayWidth.truncate(Table.singleLine(s.systemPrompt()), 120));
        }
        for (String line : table.lines()) {
            lines.add("  " + line);
        }
        return lines;
    }

    /**
     * What a message says, as lines of text: its text; for multimodal content each text part, and each
     * other part by its type in brackets ({@code [image_url]}); a dict as its JSON.
     */
    static String displayText(@Nullable MessageContent content) {
        if (content == null) {
            return "";
        }
        if (!(content instanceof MessageContent.Structured structured) || !(structured.value() instanceof List<?> parts)) {
            return content.plainText();
        }
        List<String> shown = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof Map<?, ?> map && "text".equals(map.get("type")) && map.get("text") instanceof String text) {
                shown.add(text);
            } else {
                shown.add("[" + (part instanceof Map<?, ?> map && map.get("type") != null ? map.get("type") : "part") + "]");
            }
        }
        return String.join("\n", shown);
    }

    private static String cost(Session s) {
        List<String> parts = new ArrayList<>();
        if (s.estimatedCostUsd() != null) {
            parts.add(String.format(Locale.ROOT, "$%.4f estimated", s.estimatedCostUsd()));
        }
        if (s.actualCostUsd() != null) {
            parts.add(String.format(Locale.ROOT, "$%.4f actual", s.actualCostUsd()));
        }
        if (s.costStatus() != null) {
            parts.add("cost status " + s.costStatus());
        }
        if (s.billingProvider() != null || s.billingMode() != null) {
            parts.add("billing " + (s.billingProvider() == null ? "" : s.billingProvider())
                    + (s.billingMode() == null ? "" : " (" + s.billingMode() + ")"));
        }
        return String.join(" · ", parts);
    }

    private static String messageHeading(Message m, Times times, Highlighter style) {
        StringBuilder heading = new StringBuilder("[" + times.clock(m.timestamp()) + "] " + style.bold(m.role()));
        if (!m.active()) {
            heading.append(style.dim(m.compacted() ? " [compacted]" : " [rewound]"));
        }
        if (m.toolName() != null) {
            heading.append(" ").append(m.toolName());
        }
        if (m.toolCallId() != null) {
            heading.append(style.dim(" (" + m.toolCallId() + ")"));
        }
        return heading.toString();
    }

    /** {@code name(arguments)} for each OpenAI-style tool call, or the JSON when it has another shape. */
    static List<String> toolCalls(@Nullable Object toolCalls) {
        List<String> calls = new ArrayList<>();
        if (toolCalls == null) {
            return calls;
        }
        List<?> items = toolCalls instanceof List<?> list ? list : List.of(toolCalls);
        for (Object item : items) {
            if (item instanceof Map<?, ?> call && call.get("function") instanceof Map<?, ?> function
                    && function.get("name") instanceof String name) {
                Object arguments = function.get("arguments");
                String text = arguments == null ? "" : arguments instanceof String s ? s : Json.toJson(arguments);
                calls.add(name + "(" + cut(Table.singleLine(text), 80) + ")");
            } else {
                calls.add(cut(Json.toJson(item), 80));
            }
        }
        return calls;
    }

    /** At most {@code max} code points, with a note of how many were left out. */
    static String cut(String text, int max) {
        int length = text.codePointCount(0, text.length());
        if (length <= max) {
            return text;
        }
        int end = text.offsetByCodePoints(0, max);
        return text.substring(0, end) + String.format(Locale.ROOT, "… (%,d more characters; --full shows all)", length - max);
    }
}
