package dev.hermes.state.cli.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One self-contained HTML page: inline CSS, no script, no external resource, every stored string
 * escaped ({@code & < > " '}), so a message holding markup shows as text and runs nothing. Streams:
 * each session is written as it is read.
 */
public final class HtmlExport implements AutoCloseable {
    private static final String STYLE = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
            + "color:#1d1d1f;background:#fff}section{border-top:2px solid #ddd;margin-top:2rem}table{border-collapse:collapse}"
            + "td{padding:.1rem .6rem;border-bottom:1px solid #eee;vertical-align:top}td:first-child{color:#666}"
            + ".m{margin:1rem 0;padding:.5rem 1rem;border-left:4px solid #ccc;background:#fafafa}.user{border-color:#2a6df4}"
            + ".assistant{border-color:#2aa84a}.tool{border-color:#b8860b}.h{color:#666;font-size:.85rem}"
            + "pre{white-space:pre-wrap;word-wrap:break-word;margin:.3rem 0}";

    private final Writer out;
    private int sessions;

    public HtmlExport(OutputStream target, String title) {
        this.out = new OutputStreamWriter(target, StandardCharsets.UTF_8);
        write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
                + "<title>" + escape(title) + "</title><style>" + STYLE + "</style></head><body>\n<h1>" + escape(title) + "</h1>\n");
    }

    public void write(Map<String, Object> session) {
        StringBuilder html = new StringBuilder("<section>\n<h2>").append(escape(Rendered.heading(session))).append("</h2>\n<table>");
        for (String fact : Rendered.FACTS) {
            Object value = session.get(fact);
            if (value != null) {
                html.append("<tr><td>").append(fact).append("</td><td>").append(escape(Rendered.text(value))).append("</td></tr>");
            }
        }
        html.append("</table>\n");
        for (Map<String, Object> message : Rendered.messages(session)) {
            String role = Rendered.text(message.get("role"));
            String roleClass = role.matches("user|assistant|tool") ? role : "other";
            html.append("<div class=\"m ").append(roleClass).append("\"><div class=\"h\">").append(escape(role));
            if (message.get("tool_name") != null) {
                html.append(" · ").append(escape(Rendered.text(message.get("tool_name"))));
            }
            html.append(" · ").append(escape(Rendered.text(message.get("timestamp")))).append("</div>");
            String content = Rendered.text(message.get("content"));
            if (!content.isEmpty()) {
                html.append("<pre>").append(escape(content)).append("</pre>");
            }
            if (message.get("tool_calls") != null) {
                html.append("<pre>").append(escape(Rendered.text(message.get("tool_calls")))).append("</pre>");
            }
            html.append("</div>\n");
        }
        write(html.append("</section>\n").toString());
        sessions++;
    }

    public int sessions() {
        return sessions;
    }

    @Override
    public void close() {
        write("</body></html>\n");
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String text) {
        try {
            out.write(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text as HTML character data or attribute value. */
    public static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
