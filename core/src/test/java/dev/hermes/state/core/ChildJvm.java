package dev.hermes.state.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test class path in a separate JVM (same java binary, same class path),
 * for what one process cannot show: environment variables, console output, memory caps.
 */
final class ChildJvm {

    record Result(int exitCode, String stdout, String stderr) {
    }

    private ChildJvm() {
    }

    static Result run(Map<String, String> environment, List<String> jvmOptions, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        var stdout = process.getInputStream();
        var stderr = process.getErrorStream();
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread errReader = new Thread(() -> {
            try {
                err.complete(new String(stderr.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.completeExceptionally(e);
            }
        });
        errReader.start();
        String out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("child JVM " + main.getName() + " did not finish in 120 s");
        }
        errReader.join();
        return new Result(process.exitValue(), out, err.join());
    }
}
