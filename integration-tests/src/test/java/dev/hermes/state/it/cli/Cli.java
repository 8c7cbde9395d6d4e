package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the real command line, {@code java -jar cli/target/hermes-state.jar ...}, as a separate
 * process: stdin given, stdout and stderr captured as UTF-8, the exit code. HERMES_HOME points into
 * the test's folder, so nothing ever touches a real {@code ~/.hermes}.
 */
final class Cli {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 180;

    private final Path home;

    Cli(Path home) {
        this.home = home;
    }

    /** What a run printed and returned. */
    record Result(List<String> command, int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document: " + e.getMessage() + "\n" + this, e);
            }
        }

        List<String> lines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }

        /** Exit code 0 and nothing on stderr. */
        Result ok() {
            assertEquals(0, exitCode, "exit code of " + this);
            assertEquals("", err, "stderr of " + this);
            return this;
        }

        /** Exit code 1 with exactly one line on stderr, which is returned; nothing on stdout. */
        String userError() {
            assertEquals(1, exitCode, "exit code of " + this);
            assertEquals(1, errLines().size(), "exactly one line on stderr: " + this);
            assertTrue(err.startsWith("hermes-state: "), err);
            assertTrue(!err.contains("\tat ") && !err.contains("Exception"), "no stack trace, no exception name: " + err);
            assertEquals("", out, "stdout of " + this);
            return errLines().get(0);
        }

        @Override
        public String toString() {
            return String.join(" ", command) + "\n  exit " + exitCode + "\n  stdout: " + out + "\n  stderr: " + err;
        }
    }

    static Path jar() {
        String property = System.getProperty("hermes.cli.jar");
        if (property == null) {
            fail("system property hermes.cli.jar is not set (run through Maven)");
        }
        Path jar = Path.of(property).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(jar), "the command-line jar must be built first: " + jar);
        return jar;
    }

    /** The java launcher running these tests. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
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

    static List<String> command(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(scriptJvmOptions());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        return command;
    }

    ProcessBuilder builder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.put("HERMES_HOME", home.toString());
        env.put("LC_ALL", "C.UTF-8");
        env.remove("HERMES_STATE_DEBUG");
        env.remove("NO_COLOR");
        return builder;
    }

    Result run(String... args) {
        return runWith(List.of(), "", args);
    }

    Result runWithInput(String stdin, String... args) {
        return runWith(List.of(), stdin, args);
    }

    Result runWith(List<String> jvmOptions, String stdin, String... args) {
        List<String> command = command(jvmOptions, args);
        try {
            Path in = Files.createTempFile(home, "stdin", ".txt");
            Path out = Files.createTempFile(home, "stdout", ".txt");
            Path err = Files.createTempFile(home, "stderr", ".txt");
            Files.writeString(in, stdin, StandardCharsets.UTF_8);
            Process process = builder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("timed out after " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
            }
            Result result = new Result(command, process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(in);
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
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
