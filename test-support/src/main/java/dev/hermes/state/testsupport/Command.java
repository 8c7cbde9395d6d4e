package dev.hermes.state.testsupport;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A program for a test to run as a separate process: a main class of the test's own class path in
 * a new JVM, a runnable jar, python3, or anything else; with its environment, working folder and
 * standard input. Immutable: every {@code with}-method returns a new command.
 * {@link #run()} waits for the end; {@link #start()} returns the {@link ChildProcess} while it runs.
 */
public final class Command {
    private final List<String> argv;
    /** Variables to set; a null value removes the variable the child would inherit. */
    private final Map<String, String> environment;
    private final @Nullable Path directory;
    private final @Nullable String stdin;

    private Command(List<String> argv, Map<String, String> environment, @Nullable Path directory, @Nullable String stdin) {
        this.argv = List.copyOf(argv);
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        this.directory = directory;
        this.stdin = stdin;
    }

    /** Any program: {@code argv[0]} is looked up on the PATH. */
    public static Command of(List<String> argv) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("no program to run");
        }
        return new Command(argv, Map.of(), null, null);
    }

    public static Command of(String... argv) {
        return of(List.of(argv));
    }

    /** {@code java -cp <this test run's class path> main args}. */
    public static Command java(Class<?> main, String... args) {
        return java(List.of(), main, args);
    }

    /** {@code java jvmOptions -cp <this test run's class path> main args}. */
    public static Command java(List<String> jvmOptions, Class<?> main, String... args) {
        return javaOn(testClassPath(), jvmOptions, main, args);
    }

    /** The entries of this test run's class path, in order. */
    public static List<String> testClassPath() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    /**
     * {@code java jvmOptions -cp classPath main args}: a class path the test chose, such as its own
     * ({@link #testClassPath()}) without the jars a user may leave out.
     */
    public static Command javaOn(List<String> classPath, List<String> jvmOptions, Class<?> main, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(javaLauncher());
        argv.addAll(jvmOptions);
        argv.add("-cp");
        argv.add(String.join(File.pathSeparator, classPath));
        argv.add(main.getName());
        argv.addAll(List.of(args));
        return of(argv);
    }

    /** {@code java jvmOptions -jar jar args}. */
    public static Command javaJar(List<String> jvmOptions, Path jar, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(javaLauncher());
        argv.addAll(jvmOptions);
        argv.add("-jar");
        argv.add(jar.toString());
        argv.addAll(List.of(args));
        return of(argv);
    }

    /** {@code python3 args} (see {@link Python} for whether this machine has it). */
    public static Command python(String... args) {
        List<String> argv = new ArrayList<>();
        argv.add("python3");
        argv.addAll(List.of(args));
        return of(argv);
    }

    /** The java launcher of the JVM running the tests. */
    public static String javaLauncher() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public List<String> argv() {
        return argv;
    }

    /** The same command with {@code name=value} in its environment. */
    public Command withEnv(String name, @Nullable String value) {
        Map<String, String> changed = new LinkedHashMap<>(environment);
        changed.put(name, value);
        return new Command(argv, changed, directory, stdin);
    }

    /** The same command without {@code name} in its environment, even if the test's JVM has it. */
    public Command withoutEnv(String name) {
        return withEnv(name, null);
    }

    public Command withDirectory(Path folder) {
        return new Command(argv, environment, folder, stdin);
    }

    /**
     * The same command reading {@code text} (UTF-8) on stdin, then end of input. Without it, a
     * {@link #run()} child sees end of input at once and a {@link #start()}ed child reads what the
     * test {@link ChildProcess#send sends}.
     */
    public Command withStdin(String text) {
        return new Command(argv, environment, directory, text);
    }

    /** Runs to the end within {@link ChildProcess#DEFAULT_TIMEOUT}. */
    public ProcessResult run() {
        return run(ChildProcess.DEFAULT_TIMEOUT);
    }

    /** Runs to the end; killed, and an AssertionError, when it takes longer than {@code timeout}. */
    public ProcessResult run(Duration timeout) {
        try (ChildProcess child = start()) {
            child.closeStdin();
            return child.finish(timeout);
        }
    }

    public ChildProcess start() {
        return ChildProcess.start(this);
    }

    Map<String, String> environment() {
        return environment;
    }

    @Nullable Path directory() {
        return directory;
    }

    @Nullable String stdin() {
        return stdin;
    }

    /** The command line, the test class path (thousands of characters) shortened to a placeholder. */
    @Override
    public String toString() {
        List<String> shown = new ArrayList<>(argv);
        int classPath = shown.indexOf("-cp") + 1;
        if (classPath > 0 && classPath < shown.size()) {
            shown.set(classPath, "<test class path>");
        }
        return String.join(" ", shown);
    }
}
