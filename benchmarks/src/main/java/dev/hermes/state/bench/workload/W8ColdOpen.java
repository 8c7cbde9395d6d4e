package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.engine.RunDatabases;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.process.Child;
import dev.hermes.state.bench.process.ColdOpenProcess;
import dev.hermes.state.bench.process.EmptyProcess;
import dev.hermes.state.bench.process.HelloWorld;
import dev.hermes.state.bench.process.JavaProcess;
import dev.hermes.state.bench.process.StoreTarget;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * W8 — cold open. The BENCHMARK.md measure: a child JVM (same class path and options as this one)
 * opens the store, reads a session and prints READY, against an empty main. The target: the
 * real command {@code java -jar hermes-state.jar --db FILE sessions list} (on PostgreSQL
 * {@code --db URL --schema S sessions list}) against a hello-world
 * {@code java -jar}, both started the same way, spawn to exit.
 */
public final class W8ColdOpen {
    public static final int ROUNDS = 10;
    /** The system property that names the command line's jar ({@code ./hermes-state bench} sets it). */
    public static final String CLI_JAR_PROPERTY = "hermes.state.jar";
    private static final String ARCHIVE_OPTION = "-XX:SharedArchiveFile=";
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /**
     * The target measure, spawn to exit: the {@code hermes-state} script next to the jar's
     * project when there is one (what a user types), the same command straight on the jar with this
     * process's JVM options, and a hello-world jar; {@code skipped} says why when it could not run.
     */
    public record CliStart(String jar, @Nullable Latencies script, Latencies direct, Latencies helloWorld,
                           @Nullable String skipped) {
        /** The target's ratio: the script when it exists, else the direct jar command, over hello-world. */
        public double ratio() {
            if (skipped != null) {
                return Double.NaN;
            }
            return (script != null ? script : direct).medianMs() / helloWorld.medianMs();
        }

        public Latencies measured() {
            return script != null ? script : direct;
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            if (skipped != null) {
                json.put("skipped", skipped);
                return json;
            }
            json.put("jar", jar);
            if (script != null) {
                json.put("script_sessions_list_spawn_to_exit", script.minMedian());
            }
            json.put("java_jar_sessions_list_spawn_to_exit", direct.minMedian());
            json.put("hello_world_jar_spawn_to_exit", helloWorld.minMedian());
            json.put("ratio_median", Report.round(ratio()));
            return json;
        }
    }

    public record Result(Latencies spawnToReady, Latencies spawnToExit, Latencies baseline, CliStart cli) {
        public double readyMinusBaselineMs() {
            return spawnToReady.medianMs() - baseline.medianMs();
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("spawn_to_ready", spawnToReady.minMedian());
            json.put("spawn_to_exit", spawnToExit.minMedian());
            json.put("baseline", baseline.minMedian());
            json.put("ready_minus_baseline_median_ms", Report.round(readyMinusBaselineMs()));
            return json;
        }

        public Map<String, Object> detailsJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("jvm_options", JavaProcess.userOptions(false));
            json.put("cli_start", cli.toJson());
            return json;
        }
    }

    private W8ColdOpen() {
    }

    /** {@code rounds} = 10 in BENCHMARK.md; fewer only for the smoke test. */
    public static Result run(RunDatabases databases, Path scratch, int rounds) throws Exception {
        List<String> options = JavaProcess.userOptions(false);
        List<String> child = JavaProcess.command(options, ColdOpenProcess.class, databases.target(RunDatabases.MAIN));
        List<String> empty = JavaProcess.command(options, EmptyProcess.class);
        Path stderr = scratch.resolve("w8.err");
        coldOpen(child, stderr);
        spawnToExit(empty, stderr);
        Latencies ready = new Latencies(rounds);
        Latencies exit = new Latencies(rounds);
        Latencies baseline = new Latencies(rounds);
        for (int round = 0; round < rounds; round++) {
            long[] times = coldOpen(child, stderr);
            ready.add(times[0]);
            exit.add(times[1]);
            baseline.add(spawnToExit(empty, stderr));
        }
        return new Result(ready, exit, baseline, cliStart(databases.commandOptions(RunDatabases.MAIN), scratch, options, rounds));
    }

    /** {@code store}: the command line's options that name the store ({@code --db FILE}, or {@code --db URL --schema S}). */
    private static CliStart cliStart(List<String> store, Path scratch, List<String> options, int rounds) throws Exception {
        Path jar = cliJar();
        if (jar == null) {
            return new CliStart("", null, new Latencies(), new Latencies(), "the hermes-state jar is not given or not built (start the benchmark "
                    + "with ./hermes-state bench, or set -D" + CLI_JAR_PROPERTY + "=cli/target/hermes-state.jar)");
        }
        Path script = launcherScript(jar);
        List<String> sessionsList = new ArrayList<>(store);
        sessionsList.addAll(List.of("sessions", "list"));
        List<String> scriptCommand = null;
        if (script != null) {
            scriptCommand = new ArrayList<>(List.of(script.toString()));
            scriptCommand.addAll(sessionsList);
        }
        // a class-data archive belongs to the jar it was made from: this JVM's is the benchmark jar's, the
        // command runs with the one its build made beside it (as ./hermes-state runs it), hello-world without
        List<String> helloOptions = options.stream().filter(o -> !o.startsWith(ARCHIVE_OPTION)).toList();
        List<String> cliOptions = new ArrayList<>(helloOptions);
        Path cliArchive = jar.resolveSibling("hermes-state.jsa");
        if (Files.isRegularFile(cliArchive)
                && Files.getLastModifiedTime(cliArchive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
            cliOptions.add(ARCHIVE_OPTION + cliArchive);
        }
        List<String> direct = JavaProcess.jarCommand(cliOptions, jar, sessionsList.toArray(String[]::new));
        List<String> hello = JavaProcess.jarCommand(helloOptions, helloWorldJar(scratch));
        Path stderr = scratch.resolve("w8-cli.err");
        if (scriptCommand != null) {
            spawnToExit(scriptCommand, stderr);
        }
        spawnToExit(direct, stderr);
        spawnToExit(hello, stderr);
        Latencies scriptTimes = scriptCommand == null ? null : new Latencies(rounds);
        Latencies directTimes = new Latencies(rounds);
        Latencies helloTimes = new Latencies(rounds);
        for (int round = 0; round < rounds; round++) {
            if (scriptCommand != null && scriptTimes != null) {
                scriptTimes.add(spawnToExit(scriptCommand, stderr));
            }
            directTimes.add(spawnToExit(direct, stderr));
            helloTimes.add(spawnToExit(hello, stderr));
        }
        return new CliStart(jar.toString(), scriptTimes, directTimes, helloTimes, null);
    }

    /** {@code <project>/hermes-state} for a jar at {@code <project>/cli/target/hermes-state.jar}, if it is there. */
    private static @Nullable Path launcherScript(Path jar) {
        Path target = jar.toAbsolutePath().getParent();
        Path project = target == null || target.getParent() == null ? null : target.getParent().getParent();
        Path script = project == null ? null : project.resolve("hermes-state");
        return script != null && Files.isRegularFile(script) && Files.isExecutable(script) ? script : null;
    }

    /** {spawn→ready, spawn→exit} of one cold-open child. */
    private static long[] coldOpen(List<String> command, Path stderr) throws Exception {
        try (Child child = Child.start(command, stderr)) {
            long ready = child.awaitLine(ColdOpenProcess.READY, TIMEOUT).receivedNanos();
            int code = child.waitFor(TIMEOUT);
            long exited = System.nanoTime();
            if (code != 0) {
                throw new IllegalStateException("cold-open child exited with " + code + child.stderrTail());
            }
            return new long[]{ready - child.spawnNanos(), exited - child.spawnNanos()};
        }
    }

    private static long spawnToExit(List<String> command, Path stderr) throws Exception {
        try (Child child = Child.start(command, stderr)) {
            // drain stdout to its end so a chatty child never blocks on a full pipe
            while (!child.nextLine(TIMEOUT).endOfOutput()) {
                // discard
            }
            int code = child.waitFor(TIMEOUT);
            long exited = System.nanoTime();
            if (code != 0) {
                // a PostgreSQL URL on the command line may hold a password: never in a message
                throw new IllegalStateException(command.stream().map(StoreTarget::describe).collect(Collectors.joining(" "))
                        + " exited with " + code + child.stderrTail());
            }
            return exited - child.spawnNanos();
        }
    }

    /** The hermes-state jar the {@value #CLI_JAR_PROPERTY} system property names, if it is there; else null. */
    static @Nullable Path cliJar() {
        String configured = System.getProperty(CLI_JAR_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return null;
        }
        Path jar = Path.of(configured);
        return Files.isRegularFile(jar) ? jar : null;
    }

    /** A one-class jar whose main prints "Hello, world". */
    static Path helloWorldJar(Path scratch) throws IOException {
        Path jar = scratch.resolve("hello-world.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, HelloWorld.class.getName());
        String entry = HelloWorld.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file, manifest);
             InputStream classBytes = HelloWorld.class.getResourceAsStream("/" + entry)) {
            out.putNextEntry(new JarEntry(entry));
            classBytes.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }
}
