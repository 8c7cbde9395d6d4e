package dev.hermes.state.cli.export;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Markdown: one file per session in a folder, named from its id (characters outside
 * {@code A-Z a-z 0-9 . _ -} become {@code _}; a clash gets {@code -2}, {@code -3}...), and
 * {@code SHA256SUMS} listing each file's SHA-256 in the format {@code sha256sum -c} checks. Message
 * text goes in fenced blocks longer than any backtick run it holds, so no content can close its block
 * or turn into Markdown of the export's own.
 */
public final class MarkdownExport implements AutoCloseable {
    public static final String SUMS = "SHA256SUMS";

    private final Path folder;
    private final Map<String, String> sums = new LinkedHashMap<>();
    private final Set<String> names = new HashSet<>();

    /** Writes into {@code folder}, created if missing; an existing file there is refused, not overwritten. */
    public MarkdownExport(Path folder) {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new InvalidArgumentException("--out " + folder + " is a file; the md format writes a folder");
        }
        try {
            Files.createDirectories(folder);
            try (var entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    throw new InvalidArgumentException("--out " + folder + " is not empty; the md format writes into a new or empty folder");
                }
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot create " + folder + ": " + e.getMessage(), e);
        }
        this.folder = folder;
        names.add(SUMS);
    }

    /** Writes one session's file. */
    public void write(Map<String, Object> session) {
        String name = fileName(String.valueOf(session.get("id")));
        byte[] bytes = render(session).getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(folder.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sums.put(name, sha256(bytes));
    }

    /** The number of session files written. */
    public int files() {
        return sums.size();
    }

    /** Writes {@code SHA256SUMS}. */
    @Override
    public void close() {
        StringBuilder text = new StringBuilder();
        sums.forEach((name, sum) -> text.append(sum).append("  ").append(name).append('\n'));
        try {
            Files.writeString(folder.resolve(SUMS), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String fileName(String id) {
        String base = id.replaceAll("[^A-Za-z0-9._-]", "_");
        if (base.isEmpty() || base.startsWith(".")) {
            base = "_" + base;
        }
        String name = base + ".md";
        for (int n = 2; !names.add(name); n++) {
            name = base + "-" + n + ".md";
        }
        return name;
    }

    static String render(Map<String, Object> session) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(inline(Rendered.heading(session))).append("\n\n");
        md.append("| | |\n|---|---|\n");
        for (String fact : Rendered.FACTS) {
            Object value = session.get(fact);
            if (value != null) {
                md.append("| ").append(fact).append(" | ").append(inline(Rendered.text(value))).append(" |\n");
            }
        }
        for (Map<String, Object> message : Rendered.messages(session)) {
            md.append("\n## ").append(inline(Rendered.text(message.get("role"))));
            if (message.get("tool_name") != null) {
                md.append(" · ").append(inline(Rendered.text(message.get("tool_name"))));
            }
            md.append(" · ").append(Rendered.text(message.get("timestamp"))).append("\n\n");
            String content = Rendered.text(message.get("content"));
            if (!content.isEmpty()) {
                fenced(md, content, "");
            }
            if (message.get("tool_calls") != null) {
                fenced(md, Rendered.text(message.get("tool_calls")), "json");
            }
        }
        return md.toString();
    }

    /** One line of table or heading text: no line breaks, pipes escaped, Markdown's active characters escaped. */
    static String inline(String text) {
        return text.replace("\r", " ").replace("\n", " ").replaceAll("([\\\\`*_\\[\\]<>|#])", "\\\\$1");
    }

    private static void fenced(StringBuilder md, String text, String language) {
        int longest = 0;
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            run = text.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(Math.max(3, longest + 1));
        md.append(fence).append(language).append('\n').append(text);
        if (!text.endsWith("\n")) {
            md.append('\n');
        }
        md.append(fence).append("\n\n");
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
