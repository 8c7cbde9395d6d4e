package dev.hermes.state.it.migrations;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the migration-only command and other programs as separate processes, as a user or CI would. */
final class Processes {
    private static final long TIMEOUT_SECONDS = 180;

    record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private Processes() {
    }

    /** {@code migrations/target/hermes-state-migrate.jar}, built by the migrations module's package phase. */
    static Path migrateJar() {
        Path jar = Path.of(System.getProperty("hermes.repo.root", "..")).toAbsolutePath().normalize()
                .resolve("migrations/target/hermes-state-migrate.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with the package phase"
                    + " (mvn -B -ntp -pl integration-tests -am verify)");
        }
        return jar;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java [jvmOptions] -jar hermes-state-migrate.jar args}. */
    static Result migrateJar(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(migrateJar().toString());
        command.addAll(List.of(args));
        return run(command);
    }

    static Result migrateJar(String... args) {
        return migrateJar(List.of(), args);
    }

    /** A main class of this test run's class path in a new JVM. */
    static Process startMain(Class<?> mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        return start(command);
    }

    static Result run(List<String> command) {
        return finish(start(command));
    }

    static Process start(List<String> command) {
        try {
            return new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    static Result finish(Process process) {
        CompletableFuture<String> out = read(process.getInputStream());
        CompletableFuture<String> err = read(process.getErrorStream());
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("process did not end within " + TIMEOUT_SECONDS + " s: " + process.info());
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Drains a stream on a thread of its own (the common pool may have a single thread on 2 cores). */
    private static CompletableFuture<String> read(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, task -> {
            Thread reader = new Thread(task, "process-output");
            reader.setDaemon(true);
            reader.start();
        });
    }

}
