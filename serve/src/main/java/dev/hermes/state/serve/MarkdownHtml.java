package dev.hermes.state.serve;

import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.HtmlWriter;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Message text (Markdown, written by a model or pasted by anyone: hostile) as HTML that a page may insert
 * as is. Raw HTML in the text is escaped, never passed through; a link keeps its anchor only for an
 * absolute http, https or mailto URL (with {@code rel="noopener noreferrer nofollow"}), otherwise only its
 * text remains; an image is never loaded (that would fetch from anywhere the text names): it becomes a
 * link to its URL under the same rule, its alt text as the label. Attribute values are escaped by the
 * renderer. The page's Content-Security-Policy is the second line of defence.
 */
public final class MarkdownHtml {
    private static final Set<String> SCHEMES = Set.of("http", "https", "mailto");
    private static final Parser PARSER = Parser.builder().build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder()
            .escapeHtml(true)
            .sanitizeUrls(true)
            .urlSanitizer(new org.commonmark.renderer.html.UrlSanitizer() {
                @Override
                public String sanitizeLinkUrl(String url) {
                    return allowed(url) ? url : "";
                }

                @Override
                public String sanitizeImageUrl(String url) {
                    return "";
                }
            })
            .nodeRendererFactory(SafeLinks::new)
            .build();

    private MarkdownHtml() {
    }

    /** The text rendered as sanitized HTML; "" for null. */
    public static String render(@Nullable String markdown) {
        if (markdown == null || markdown.isEmpty()) {
            return "";
        }
        return RENDERER.render(PARSER.parse(markdown));
    }

    /** The text as a preformatted block, escaped (tool output, JSON). */
    public static String preformatted(@Nullable String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        return "<pre><code>" + escape(text) + "</code></pre>\n";
    }

    /** Text escaped for an HTML text node or a quoted attribute value. */
    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** An absolute URL with an allowed scheme; control characters and spaces in the scheme part refused. */
    static boolean allowed(@Nullable String url) {
        if (url == null) {
            return false;
        }
        String trimmed = url.strip();
        int colon = trimmed.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        String scheme = trimmed.substring(0, colon);
        if (!scheme.matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            return false;
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        if (!SCHEMES.contains(scheme)) {
            return false;
        }
        return !scheme.startsWith("http") || trimmed.regionMatches(colon, "://", 0, 3);
    }

    /** Links and images under the rules above. */
    private static final class SafeLinks implements NodeRenderer {
        private final HtmlNodeRendererContext context;
        private final HtmlWriter html;

        SafeLinks(HtmlNodeRendererContext context) {
            this.context = context;
            this.html = context.getWriter();
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(Link.class, Image.class);
        }

        @Override
        public void render(Node node) {
            String destination = node instanceof Link link ? link.getDestination() : ((Image) node).getDestination();
            @Nullable String title = node instanceof Link link ? link.getTitle() : ((Image) node).getTitle();
            boolean keep = allowed(destination);
            if (keep) {
                Map<String, String> attributes = new LinkedHashMap<>();
                attributes.put("href", context.encodeUrl(destination.strip()));
                if (title != null) {
                    attributes.put("title", title);
                }
                attributes.put("rel", "noopener noreferrer nofollow");
                attributes.put("target", "_blank");
                if (node instanceof Image) {
                    attributes.put("class", "image-link");
                }
                html.tag("a", attributes);
            }
            Node child = node.getFirstChild();
            if (child == null && node instanceof Image) {
                html.text(keep ? destination.strip() : "[image]");
            }
            while (child != null) {
                Node next = child.getNext();
                context.render(child);
                child = next;
            }
            if (keep) {
                html.tag("/a");
            }
        }
    }
}
