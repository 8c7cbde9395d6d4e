package dev.hermes.state.core.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;

/**
 * One store operation, as the observation convention reads it: only values of a fixed, small set
 * (never a session id, a query or a path), so every one of them can be a tag. Two contexts, because
 * a tracer takes a span's kind from the context's type: {@link Embedded} (a SQLite file in this
 * process, kind INTERNAL) and {@link Remote} (a PostgreSQL server, kind CLIENT).
 */
public sealed interface StoreOperation permits StoreOperation.Embedded, StoreOperation.Remote {

    /** The store method the application called: {@code appendMessage}, {@code searchMessages}... */
    String operation();

    /** sqlite or postgresql. */
    String engine();

    /** The file's name, or {@code database|schema} on a server; empty when not known. */
    String namespace();

    /** Whether the operation ran in a write transaction. */
    boolean write();

    /** The tags of this operation had it succeeded (built once per operation and store). */
    KeyValues successKeyValues();

    /** The span's name: the operation, then where it ran (built once per operation and store). */
    String contextualName();

    /** The context of this operation's observation. */
    Observation.Context context();

    static StoreOperation of(String operation, String engine, String namespace, boolean write, boolean remote,
                             KeyValues success, String contextualName) {
        return remote ? new Remote(operation, engine, namespace, write, success, contextualName)
                : new Embedded(operation, engine, namespace, write, success, contextualName);
    }

    /** An operation on a file in this process. */
    final class Embedded extends Observation.Context implements StoreOperation {
        private final String operation;
        private final String engine;
        private final String namespace;
        private final boolean write;
        private final KeyValues success;
        private final String spanName;

        Embedded(String operation, String engine, String namespace, boolean write, KeyValues success,
                 String contextualName) {
            this.operation = operation;
            this.engine = engine;
            this.namespace = namespace;
            this.write = write;
            this.success = success;
            this.spanName = contextualName;
        }

        @Override
        public String operation() {
            return operation;
        }

        @Override
        public String engine() {
            return engine;
        }

        @Override
        public String namespace() {
            return namespace;
        }

        @Override
        public boolean write() {
            return write;
        }

        @Override
        public KeyValues successKeyValues() {
            return success;
        }

        @Override
        public String contextualName() {
            return spanName;
        }

        @Override
        public Observation.Context context() {
            return this;
        }
    }

    /** An operation on a server: a client call (nothing is propagated: a database takes no trace headers). */
    final class Remote extends SenderContext<Object> implements StoreOperation {
        private final String operation;
        private final String engine;
        private final String namespace;
        private final boolean write;
        private final KeyValues success;
        private final String spanName;

        Remote(String operation, String engine, String namespace, boolean write, KeyValues success,
                 String contextualName) {
            super((carrier, key, value) -> { }, Kind.CLIENT);
            setCarrier(new Object());
            setRemoteServiceName(engine);
            this.operation = operation;
            this.engine = engine;
            this.namespace = namespace;
            this.write = write;
            this.success = success;
            this.spanName = contextualName;
        }

        @Override
        public String operation() {
            return operation;
        }

        @Override
        public String engine() {
            return engine;
        }

        @Override
        public String namespace() {
            return namespace;
        }

        @Override
        public boolean write() {
            return write;
        }

        @Override
        public KeyValues successKeyValues() {
            return success;
        }

        @Override
        public String contextualName() {
            return spanName;
        }

        @Override
        public Observation.Context context() {
            return this;
        }
    }
}
