package dev.hermes.state.it.cli;

import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Another language uses the store: a Python script drives {@code hermes-state rpc} and checks its answers. */
class CliPythonRpcTest {
    @TempDir
    Path dir;

    @Test
    void aPythonClientDrivesTheRpc() throws Exception {
        Python.require();
        Path script = dir.resolve("rpc_client.py");
        try (InputStream in = CliPythonRpcTest.class.getResourceAsStream("rpc_client.py")) {
            Files.write(script, in.readAllBytes());
        }
        ProcessResult python = new Cli(dir).withEnvironment(Command.python(script.toString(), Command.javaLauncher(),
                Cli.jar().toString(), dir.resolve("state.db").toString())).run();
        assertEquals(0, python.exitCode(), python.toString());
        assertEquals("OK\n", python.stdout());
        assertEquals("", python.stderr());
    }
}
