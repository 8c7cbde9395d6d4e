package dev.hermes.state.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Ties a code example of the documentation to the test that compiles and runs it. The example is the
 * fenced block right after a line {@code <!-- example: NAME -->} in a Markdown file of the checkout; the
 * test's source holds the same code between {@code // --- example NAME starts ---} and
 * {@code // --- example NAME ends ---}. {@link #assertMatches} reads both files and fails when they differ
 * (common indentation and trailing blanks aside), so the documented code is the code that runs. The block's
 * {@code import} lines cannot live inside a class body: each must be one of the test file's own imports.
 */
public final class DocExample {
    private DocExample() {
    }

    /**
     * Fails unless the example {@code name} of {@code markdown} (a path from the checkout root, such as
     * {@code "README.md"}) is the marked region of {@code testClass}'s source file, which is looked up
     * under {@code src/test/java} of the module the tests run in (Maven runs them in the module's folder).
     */
    public static void assertMatches(String markdown, String name, Class<?> testClass) {
        Path moduleDir = Path.of("").toAbsolutePath();
        Path doc = checkoutRoot(moduleDir).resolve(markdown);
        Path source = moduleDir.resolve("src/test/java")
                .resolve(topLevel(testClass).getName().replace('.', '/') + ".java");
        List<String> block = docBlock(read(doc), name, doc);
        List<String> sourceLines = read(source);
        List<String> code = new ArrayList<>();
        for (String line : block) {
            if (line.startsWith("import ")) {
                String statement = withoutComment(line);
                if (sourceLines.stream().map(DocExample::withoutComment).noneMatch(statement::equals)) {
                    throw new AssertionError(doc + ", example " + name + ": " + source + " does not import `"
                            + statement + "`");
                }
            } else {
                code.add(line);
            }
        }
        List<String> expected = normalised(code);
        List<String> actual = normalised(region(sourceLines, name, source));
        if (!expected.equals(actual)) {
            throw new AssertionError(doc + ", example " + name + ", differs from the code " + source
                    + " runs.\n--- documented:\n" + String.join("\n", expected)
                    + "\n--- tested:\n" + String.join("\n", actual));
        }
    }

    /** The folder holding {@code .ci/run} and README.md, from the module folder upwards. */
    static Path checkoutRoot(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run")) && Files.isRegularFile(dir.resolve("README.md"))) {
                return dir;
            }
        }
        throw new AssertionError("no checkout root (a folder with .ci/run and README.md) above " + from);
    }

    static List<String> docBlock(List<String> lines, String name, Path doc) {
        String marker = "<!-- example: " + name + " -->";
        int at = lines.indexOf(marker);
        if (at < 0 || at + 1 >= lines.size() || !lines.get(at + 1).startsWith("```")) {
            throw new AssertionError(doc + " has no line `" + marker + "` followed by a fenced code block");
        }
        int end = at + 2;
        while (end < lines.size() && !lines.get(end).startsWith("```")) {
            end++;
        }
        if (end == lines.size()) {
            throw new AssertionError(doc + ": the code block of example " + name + " is not closed");
        }
        return lines.subList(at + 2, end);
    }

    static List<String> region(List<String> lines, String name, Path source) {
        String starts = "// --- example " + name + " starts ---";
        String ends = "// --- example " + name + " ends ---";
        int from = -1;
        int to = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.equals(starts)) {
                from = i;
            } else if (line.equals(ends)) {
                to = i;
            }
        }
        if (from < 0 || to <= from) {
            throw new AssertionError(source + " has no region `" + starts + "` ... `" + ends + "`");
        }
        return lines.subList(from + 1, to);
    }

    /** Trailing blanks and surrounding empty lines removed, the indentation all lines share taken off. */
    static List<String> normalised(List<String> lines) {
        List<String> trimmed = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
        while (!trimmed.isEmpty() && trimmed.get(0).isEmpty()) {
            trimmed.remove(0);
        }
        while (!trimmed.isEmpty() && trimmed.get(trimmed.size() - 1).isEmpty()) {
            trimmed.remove(trimmed.size() - 1);
        }
        int indent = trimmed.stream().filter(line -> !line.isEmpty())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        return trimmed.stream().map(line -> line.isEmpty() ? line : line.substring(indent)).toList();
    }

    private static String withoutComment(String line) {
        int comment = line.indexOf("//");
        return (comment < 0 ? line : line.substring(0, comment)).strip();
    }

    private static Class<?> topLevel(Class<?> type) {
        Class<?> outer = type;
        while (outer.getEnclosingClass() != null) {
            outer = outer.getEnclosingClass();
        }
        return outer;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
