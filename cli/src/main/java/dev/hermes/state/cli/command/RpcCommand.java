package dev.hermes.state.cli.command;

import dev.hermes.state.cli.rpc.RpcServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code rpc}: the JSON-lines RPC (docs/behaviour.md#rpc) on stdin/stdout, for programs in any language. */
@Command(mixinStandardHelpOptions = true, name = "rpc", description = {
        "Serve the JSON-lines RPC on stdin/stdout: one request per line, one response per line, until end of input.",
        "  {\"id\": 1, \"method\": \"append_message\", \"params\": {\"session_id\": \"s1\", \"role\": \"user\", \"content\": \"hi\"}}",
        "  {\"id\": 1, \"result\": 7}",
        "Methods are Hermes' SessionDB methods with their keyword parameters and defaults; errors come back as "
                + "{\"id\": ..., \"error\": {\"type\": ..., \"message\": ...}}. The file is created when missing."})
public final class RpcCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Override
    public Integer call() {
        BufferedReader requests = new BufferedReader(new InputStreamReader(cli.in(), StandardCharsets.UTF_8));
        try (RpcServer server = new RpcServer(cli::openOrCreate, cli.err())) {
            server.serve(requests, cli.out());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return CommandContext.OK;
    }
}
