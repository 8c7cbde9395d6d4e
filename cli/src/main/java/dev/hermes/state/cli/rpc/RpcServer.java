package dev.hermes.state.cli.rpc;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.json.Json;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.StateRepository;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The JSON-lines RPC (docs/behaviour.md#rpc): one request per line on the input, one response per line on
 * the output, in order and flushed, until end of input or a {@code close} request. Every failure,
 * including a line that is not JSON, becomes an error response and the loop goes on. The store is
 * opened on the first request that needs it (so an unreadable file is reported in-band, with its
 * typed error) and closed at the end.
 */
public final class RpcServer implements AutoCloseable {
    static final String CLOSE = "close";

    /** Error types that are not store failures. */
    static final String UNKNOWN_METHOD = "unknown_method";
    static final String INTERNAL = "internal";

    private final Supplier<StateRepository> opener;
    private final PrintStream diagnostics;
    private @Nullable StateRepository store;

    /**
     * @param opener      opens the store (called at most once successfully)
     * @param diagnostics where unexpected failures are described in more detail (stderr)
     */
    public RpcServer(Supplier<StateRepository> opener, PrintStream diagnostics) {
        this.opener = opener;
        this.diagnostics = diagnostics;
    }

    /** Serves requests until end of input or {@code close}. */
    public void serve(BufferedReader in, OutputStream out) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            Response response = handle(line);
            Json.writeLine(out, response.body());
            if (response.closes()) {
                break;
            }
        }
    }

    /** A response line and whether the session ends after it. */
    record Response(Map<String, Object> body, boolean closes) {
    }

    /** Answers one request line. */
    Response handle(String line) {
        @Nullable Object id = null;
        try {
            Object request = PythonJson.parse(line);
            if (!(request instanceof Map<?, ?> fields)) {
                throw new InvalidArgumentException("A request must be a JSON object like "
                        + "{\"id\": 1, \"method\": \"get_session\", \"params\": {\"session_id\": \"...\"}}");
            }
            id = fields.get("id");
            if (!(fields.get("method") instanceof String name)) {
                throw new InvalidArgumentException("The request has no \"method\" string");
            }
            Object params = fields.get("params");
            if (params != null && !(params instanceof Map)) {
                throw new InvalidArgumentException("\"params\" must be an object of keyword arguments");
            }
            RpcMethods.Method method = RpcMethods.find(name);
            if (method == null) {
                return error(id, UNKNOWN_METHOD, "Unknown method '" + name + "'; the methods are: "
                        + String.join(", ", RpcMethods.names()));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = params == null ? Map.of() : (Map<String, Object>) params;
            Object result = method.binder().bind(new Params(name + "()", arguments, method.parameters())).run(this::store);
            if (CLOSE.equals(name)) {
                close();
                return new Response(result(id, null), true);
            }
            return new Response(result(id, result), false);
        } catch (HermesStateException failure) {
            return error(id, failure.type().wireName(), failure.getMessage());
        } catch (RuntimeException failure) {
            diagnostics.println("hermes-state rpc: internal error: " + failure);
            return error(id, INTERNAL, failure.getClass().getSimpleName() + ": " + failure.getMessage());
        }
    }

    private StateRepository store() {
        if (store == null) {
            store = opener.get();
        }
        return store;
    }

    /** Closes the store (checkpointing it) if it was opened. */
    @Override
    public void close() {
        if (store != null) {
            StateRepository open = store;
            store = null;
            open.close();
        }
    }

    private static Map<String, Object> result(@Nullable Object id, @Nullable Object result) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("result", result);
        return body;
    }

    private static Response error(@Nullable Object id, String type, @Nullable String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("error", error);
        return new Response(body, false);
    }
}
