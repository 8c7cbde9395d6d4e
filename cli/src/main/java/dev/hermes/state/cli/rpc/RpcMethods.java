package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.StateRepository;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Every method of the RPC: the Hermes {@code SessionDB} method name, its keyword parameters in
 * Hermes' order with Hermes' defaults, and the store call that answers it, shaped like Hermes'
 * return value (None → null, dicts with Hermes' keys). Each method first reads and checks all its
 * arguments, and only then touches the store: a bad argument never opens, let alone writes, the
 * file. Methods Hermes lacks are marked "extension".
 */
final class RpcMethods {
    /** Reads and checks a call's arguments, and returns what to run on the store with them. */
    @FunctionalInterface
    interface Binder {
        Call bind(Params params);
    }

    /** A call with its arguments bound; {@code store} opens the store on first use. */
    @FunctionalInterface
    interface Call {
        @Nullable Object run(Supplier<StateRepository> store);
    }

    /** A method: its parameter names (Hermes' order) and how to bind them. */
    record Method(String name, List<String> parameters, Binder binder) {
    }

    /** Where each group of methods ({@link SessionMethods}, {@link MessageMethods}...) adds its own. */
    @FunctionalInterface
    interface Registry {
        void add(String name, List<String> parameters, Binder binder);
    }

    private static final Map<String, Method> METHODS = define();

    private RpcMethods() {
    }

    static @Nullable Method find(String name) {
        return METHODS.get(name);
    }

    static List<String> names() {
        return List.copyOf(METHODS.keySet());
    }

    private static Map<String, Method> define() {
        Map<String, Method> methods = new LinkedHashMap<>();
        Registry registry = (name, parameters, binder) -> {
            if (methods.put(name, new Method(name, List.copyOf(parameters), binder)) != null) {
                throw new IllegalStateException("RPC method " + name + " is defined twice");
            }
        };
        SessionMethods.register(registry);
        MessageMethods.register(registry);
        ListingMethods.register(registry);
        StoreMethods.register(registry);
        CoordinationMethods.register(registry);
        TelegramMethods.register(registry);
        return Collections.unmodifiableMap(methods);
    }
}
