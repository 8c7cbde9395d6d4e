package dev.hermes.state.serve.browser;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.serve.ServeOptions;
import dev.hermes.state.serve.StateServer;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * A {@code hermes-state serve} server on a free loopback port over a read-only store, in this JVM, with
 * a fixed clock: the fixtures' timestamps are fixed, so "the last 7 days" and "live" are decided at a
 * chosen instant, not whenever the tests run. Closes the server and the store.
 */
final class PageServer implements AutoCloseable {
    private final StateRepository store;
    private final StateServer server;

    private PageServer(StateRepository store, StateServer server) {
        this.store = store;
        this.server = server;
    }

    /** Serves {@code readOnlyStore} (taken over: closed with the server) as the clock reads {@code now}. */
    static PageServer serve(StateRepository readOnlyStore, Instant now) {
        return new PageServer(readOnlyStore, StateServer.start(readOnlyStore, ServeOptions.loopback(0), System.err,
                Clock.fixed(now, ZoneOffset.UTC)));
    }

    /** {@code http://127.0.0.1:PORT} followed by {@code path} (which starts with a slash). */
    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Override
    public void close() {
        server.close();
        store.close();
    }
}
