package dev.hermes.state.serve;

import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile message text becomes inert HTML: an XSS corpus through the Markdown renderer and the snippet marker. */
class MarkdownHtmlTest {
    private static final List<String> CORPUS = List.of(
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "<svg onload=alert(1)><circle/></svg>",
            "<svg><script>alert(1)</script></svg>",
            "[click](javascript:alert(1))",
            "[click](JaVaScRiPt:alert(1))",
            "[click]( javascript:alert(1) )",
            "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
            "[click](vbscript:msgbox(1))",
            "![x](javascript:alert(1))",
            "![x](https://tracker.example/pixel.png)",
            "![x\" onerror=\"alert(1)](https://e.example/a.png)",
            "[x](https://e.example/\"onmouseover=\"alert(1))",
            "[x](https://e.example/ \"title\\\" onmouseover=\\\"alert(1)\")",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<div style=\"background:url(javascript:alert(1))\">x</div>",
            "```html\n<script>alert(1)</script>\n```",
            "`<img src=x onerror=alert(1)>`",
            "<https://e.example/\"><script>alert(1)</script>>",
            "<javascript:alert(1)>",
            "{\"command\": \"<img src=x onerror=alert(1)>\", \"x\": \"</pre><script>alert(1)</script>\"}",
            "Text\n\n<details open ontoggle=alert(1)>",
            "[a][ref]\n\n[ref]: javascript:alert(1)",
            "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
            "&lt;script&gt;alert(1)&lt;/script&gt;");

    @Test
    void noCorpusEntryYieldsActiveHtml() {
        for (String text : CORPUS) {
            for (String html : List.of(MarkdownHtml.render(text), MarkdownHtml.preformatted(text),
                    Api.snippetHtml(text), Api.snippetHtml(">>>" + text + "<<<"))) {
                assertInert(text, html);
            }
        }
    }

    @Test
    void safeLinksStayAndImagesBecomeLinks() {
        assertEquals("<p><a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">docs</a></p>\n",
                MarkdownHtml.render("[docs](https://example.org/a?b=1&c=2)"));
        assertEquals("<p><a href=\"mailto:a@example.org\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">mail</a></p>\n",
                MarkdownHtml.render("[mail](mailto:a@example.org)"));
        assertEquals("<p>click</p>\n", MarkdownHtml.render("[click](javascript:alert(1))"));
        assertEquals("<p><a href=\"https://e.example/p.png\" rel=\"noopener noreferrer nofollow\" target=\"_blank\""
                + " class=\"image-link\">chart</a></p>\n", MarkdownHtml.render("![chart](https://e.example/p.png)"));
        assertEquals("<p>x</p>\n", MarkdownHtml.render("![x](javascript:alert(1))"));
        assertEquals("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n", MarkdownHtml.render("<script>alert(1)</script>"));
        assertEquals("<p><strong>bold</strong> and <code>code</code></p>\n", MarkdownHtml.render("**bold** and `code`"));
        assertEquals("a <mark>&lt;b&gt;</mark> c", Api.snippetHtml("a >>><b><<< c"));
    }

    @Test
    void toolOutputAndStructuredContentArePreformattedText() {
        Message tool = message("tool", MessageContent.text("<img src=x onerror=alert(1)> **not bold**"));
        assertEquals("<pre><code>&lt;img src=x onerror=alert(1)&gt; **not bold**</code></pre>\n", Shapes.contentHtml(tool));
        Message parts = message("user", MessageContent.parts(List.of(Map.of("type", "text", "text", "<b>hi</b>"),
                Map.of("type", "image_url", "image_url", Map.of("url", "javascript:alert(1)")))));
        assertInert("parts", Shapes.contentHtml(parts));
        assertTrue(Shapes.contentHtml(parts).contains("&lt;b&gt;hi&lt;/b&gt;"));
    }

    @Test
    void theCacheRendersAgainWhenAMessagesContentChanged() {
        Api.HtmlCache cache = new Api.HtmlCache();
        assertEquals("<p><em>one</em></p>\n", cache.of(message("assistant", MessageContent.text("*one*"))));
        assertEquals("<p><em>one</em></p>\n", cache.of(message("assistant", MessageContent.text("*one*"))));
        assertEquals("<p><em>two</em></p>\n", cache.of(message("assistant", MessageContent.text("*two*"))));
        assertEquals("<pre><code>*two*</code></pre>\n", cache.of(message("tool", MessageContent.text("*two*"))));
    }

    private static Message message(String role, MessageContent content) {
        return new Message(1, "s", role, content, null, null, null, Instant.EPOCH, null, null, null, null, null, null,
                null, null, false, true, false);
    }

    /**
     * No element but the renderer's own (p, a, strong, em, code, pre, mark, lists, headings, blockquote,
     * hr, br), no event attribute, no script URL in an attribute.
     */
    private static void assertInert(String text, String html) {
        String lower = html.toLowerCase(Locale.ROOT);
        java.util.regex.Matcher tags = java.util.regex.Pattern.compile("<\\s*/?\\s*([a-z0-9]+)").matcher(lower);
        while (tags.find()) {
            assertTrue(List.of("p", "a", "strong", "em", "code", "pre", "mark", "ul", "ol", "li", "h1", "h2", "h3",
                    "h4", "h5", "h6", "blockquote", "hr", "br").contains(tags.group(1)), () -> text + " -> " + html);
        }
        java.util.regex.Matcher tagText = java.util.regex.Pattern.compile("<[^>]*>").matcher(lower);
        while (tagText.find()) {
            String outsideValues = tagText.group().replaceAll("\"[^\"]*\"", "\"\"");
            assertFalse(outsideValues.matches("(?s).*\\son[a-z]+\\s*=.*"), () -> text + " -> " + html);
        }
        java.util.regex.Matcher hrefs = java.util.regex.Pattern.compile("(href|src)=\"([^\"]*)\"").matcher(lower);
        while (hrefs.find()) {
            String url = hrefs.group(2);
            assertTrue(url.startsWith("https://") || url.startsWith("http://") || url.startsWith("mailto:"),
                    () -> text + " -> " + html);
        }
    }
}
