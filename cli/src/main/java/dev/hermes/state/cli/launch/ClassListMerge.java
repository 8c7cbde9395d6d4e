package dev.hermes.state.cli.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Build step: one class list for the static class-data-sharing dump out of several training runs'
 * ({@code -XX:DumpLoadedClassList}, one file a run): their lines in order, each line once, comments
 * dropped. The demo alone left about 110 classes of a cold {@code sessions list} out of the archive
 * (the JDK's generic-signature and reflection classes picocli reaches for the listing's options, the
 * method-handle forms and jOOQ lambdas of its first query), each then loaded, verified or spun at every
 * start.
 *
 * <p>usage: {@code java -cp hermes-state.jar dev.hermes.state.cli.launch.ClassListMerge OUT IN...}
 */
public final class ClassListMerge {
    private ClassListMerge() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ClassListMerge OUT IN...");
            System.exit(2);
        }
        List<Path> inputs = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            inputs.add(Path.of(args[i]));
        }
        Files.write(Path.of(args[0]), merge(inputs), StandardCharsets.UTF_8);
    }

    /** The lines of the lists in order, each once, without the JVM's comment lines. */
    static List<String> merge(List<Path> lists) throws IOException {
        Set<String> lines = new LinkedHashSet<>();
        for (Path list : lists) {
            for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    lines.add(line);
                }
            }
        }
        return new ArrayList<>(lines);
    }
}
