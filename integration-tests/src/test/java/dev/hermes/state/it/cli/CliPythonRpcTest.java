package dev.hermes.state.it.cli;

import dev.hermes.state.it.Python;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Another language uses the store: a Python script drives {@code hermes-state rpc} and checks its answers. */
class CliPythonRpcTest {
    @TempDir
    Path dir;

    @Test
    void aPythonClientDrivesTheRpc() throws Exception {
        Assumptions.assumeTrue(Python.runs(), "python3 is not installed: skipping the Python RPC client test");
        Path script = dir.resolve("rpc_client.py");
        try (InputStream in = CliPythonRpcTest.class.getResourceAsStream("rpc_client.py")) {
            Files.write(script, in.readAllBytes());
        }
        Path output = dir.resolve("python.out");
        Process python = new Cli(dir).builder(java.util.List.of("python3", script.toString(), Cli.java(),
                        Cli.jar().toString(), dir.resolve("state.db").toString()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(python.waitFor(180, TimeUnit.SECONDS), "the Python client finishes");
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, python.exitValue(), printed);
        assertEquals("OK\n", printed);
    }
}
