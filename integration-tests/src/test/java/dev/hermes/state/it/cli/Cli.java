package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real command line, {@code java -jar cli/target/hermes-state.jar ...}, started the way the root
 * script {@code ./hermes-state} starts it, as a separate process (through the tests' one runner,
 * {@link Command}). HERMES_HOME points into the test's folder, so nothing ever touches a real
 * {@code ~/.hermes}.
 */
public final class Cli {
    public static final ObjectMapper JSON = new ObjectMapper();
    /** The prefix of the command's one-line user errors ({@link ProcessResult#userError}). */
    public static final String PROGRAM = "hermes-state";

    private final Path home;
    /** Global options every run gets first (e.g. the pin {@code --schema-version 6}). */
    private final List<String> globalOptions;

    /** The command line with HERMES_HOME={@code home}. */
    public Cli(Path home) {
        this(home, List.of());
    }

    private Cli(Path home, List<String> globalOptions) {
        this.home = home;
        this.globalOptions = globalOptions;
    }

    /** This command line with every file kept at schema version 6 ({@code --schema-version 6} on each run). */
    public Cli keptAtSix() {
        return new Cli(home, List.of("--schema-version", "6"));
    }

    public static Path jar() {
        String property = System.getProperty("hermes.cli.jar");
        if (property == null) {
            fail("system property hermes.cli.jar is not set (run through Maven)");
        }
        Path jar = Path.of(property).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(jar), "the command-line jar must be built first: " + jar);
        return jar;
    }

    /**
     * The JVM options the root script {@code ./hermes-state} uses (the class-data archive and the
     * SQLite library the build put beside a fresh jar, the quick-start JIT and collector, JVM logging
     * off stdout): the tests run the command the way users do, and start faster.
     */
    static List<String> scriptJvmOptions() {
        List<String> options = new ArrayList<>(List.of("-Xshare:auto", "-Xlog:disable", "-Xlog:all=error:stderr",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        Path archive = jar().resolveSibling("hermes-state.jsa");
        if (newerThanJar(archive)) {
            options.add("-XX:SharedArchiveFile=" + archive);
        }
        Path library = jar().resolveSibling("native").resolve(System.mapLibraryName("sqlitejdbc"));
        if (newerThanJar(library)) {
            options.add("-Dorg.sqlite.lib.path=" + library.getParent());
            options.add("-Dorg.sqlite.lib.name=" + library.getFileName());
        }
        return options;
    }

    private static boolean newerThanJar(Path file) {
        try {
            return Files.isRegularFile(file) && Files.getLastModifiedTime(file).compareTo(Files.getLastModifiedTime(jar())) > 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code hermes-state args}, the JVM also given {@code jvmOptions}. */
    public Command command(List<String> jvmOptions, String... args) {
        List<String> options = new ArrayList<>(scriptJvmOptions());
        options.addAll(jvmOptions);
        List<String> argv = new ArrayList<>(globalOptions);
        argv.addAll(List.of(args));
        return withEnvironment(Command.javaJar(options, jar(), argv.toArray(String[]::new)));
    }

    public Command command(String... args) {
        return command(List.of(), args);
    }

    /**
     * Another program (a client that starts the command line itself) with this command line's
     * environment: HERMES_HOME, a UTF-8 locale, no debug output, colours left to the command.
     */
    public Command withEnvironment(Command program) {
        return program.withEnv("HERMES_HOME", home.toString()).withEnv("LC_ALL", "C.UTF-8")
                .withoutEnv("HERMES_STATE_DEBUG").withoutEnv("NO_COLOR");
    }

    /** Runs {@code hermes-state args} to its end (no input). */
    public ProcessResult run(String... args) {
        return command(args).run();
    }

    /** Runs {@code hermes-state args}, which must succeed silently on stderr, and reads its stdout as one JSON document. */
    public JsonNode json(String... args) {
        ProcessResult result = run(args).ok();
        try {
            return JSON.readTree(result.stdout());
        } catch (IOException e) {
            throw new AssertionError("stdout is not one JSON document: " + e.getMessage() + "\n" + result, e);
        }
    }

    /** The ids of a JSON array of objects, in order. */
    static List<String> ids(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(node -> ids.add(node.get("id").asText()));
        return ids;
    }

    /** The numeric ids of a JSON array of objects, sorted. */
    static List<Long> sortedNumericIds(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        array.forEach(node -> ids.add(node.get("id").asLong()));
        ids.sort(null);
        return ids;
    }
}
