package dev.hermes.state.cli.command;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.serve.ServeOptions;
import dev.hermes.state.serve.StateServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code serve}: the session browser and usage analytics in a browser, over the store opened read-only
 * (a file or a PostgreSQL URL). Runs until interrupted (Ctrl-C), then closes the server and the store.
 */
@Command(mixinStandardHelpOptions = true, name = "serve",
        description = {"Serves a read-only session browser and usage analytics at http://127.0.0.1:9119/ (and a JSON "
                + "API under /api/, see docs/serve.md). Never writes. Stop with Ctrl-C.",
                "A host other than loopback needs an access token (--token or $" + ServeOptions.TOKEN_ENV + "); "
                        + "then every request needs it: open the page once with ?token=TOKEN, or send "
                        + "'Authorization: Bearer TOKEN'."})
public final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "The address to listen on (default: 127.0.0.1).")
    private String host = ServeOptions.DEFAULT_HOST;

    @Option(names = "--port", paramLabel = "N", description = "The port (default: 9119; 0 picks a free one).")
    private int port = ServeOptions.DEFAULT_PORT;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Require this access token (16+ characters) on every request (default: $"
                    + ServeOptions.TOKEN_ENV + ", else none, and only a loopback host is allowed).")
    private String token;

    @Option(names = "--no-open", description = "Do not open a browser.")
    private boolean noOpen;

    @Override
    public Integer call() throws InterruptedException {
        String accessToken = token != null ? token : System.getenv(ServeOptions.TOKEN_ENV);
        ServeOptions options = new ServeOptions(host, port, accessToken);
        StateRepository store = cli.openForReading();
        StateServer server;
        try {
            server = StateServer.start(store, options, cli.err());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            server.close();
            store.close();
            stopped.countDown();
        }, "hermes-state-serve-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        URI uri = server.uri();
        cli.out().println("hermes-state serve: " + store.describe() + " (read-only) at " + uri
                + (options.token() != null ? "  (token required: open " + uri + "?token=...)" : ""));
        cli.out().println("Press Ctrl-C to stop.");
        cli.out().flush();
        if (!noOpen) {
            openBrowser(options.token() == null ? uri : URI.create(uri + "?token=" + options.token()));
        }
        stopped.await();
        return CommandContext.OK;
    }

    /** Opens the page in the desktop's browser when there is one; says nothing and goes on when not. */
    private void openBrowser(URI uri) {
        try {
            if (!java.awt.GraphicsEnvironment.isHeadless() && java.awt.Desktop.isDesktopSupported()
                    && java.awt.Desktop.getDesktop().isSupported(java.awt.Desktop.Action.BROWSE)) {
                java.awt.Desktop.getDesktop().browse(uri);
            }
        } catch (Exception | LinkageError e) {
            cli.err().println("hermes-state serve: could not open a browser (" + e.getMessage() + "); open " + uri);
        }
    }
}
