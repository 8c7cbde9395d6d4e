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
sealed interface StoreOperation permits StoreOperation.Embedded, StoreOperation.Remote {

    /**
     * What both contexts carry: the operation's fixed values, its success tags and span name (built
     * once per operation and store).
     */
    record Facts(String operation, String engine, String namespace, boolean write, KeyValues success,
                 String contextualName) {
    }

    /** This operation's values. */
    Facts facts();

    /** The store method the application called: {@code appendMessage}, {@code searchMessages}... */
    default String operation() {
        return facts().operation();
    }

    /** sqlite or postgresql. */
    default String engine() {
        return facts().engine();
    }

    /** The file's name, or {@code database|schema} on a server; empty when not known. */
    default String namespace() {
        return facts().namespace();
    }

    /** Whether the operation ran in a write transaction. */
    default boolean write() {
        return facts().write();
    }

    /** The tags of this operation had it succeeded (built once per operation and store). */
    default KeyValues successKeyValues() {
        return facts().success();
    }

    /** The span's name: the operation, then where it ran (built once per operation and store). */
    default String contextualName() {
        return facts().contextualName();
    }

    /** The context of this operation's observation. */
    Observation.Context context();

    static StoreOperation of(String operation, String engine, String namespace, boolean write, boolean remote,
                             KeyValues success, String contextualName) {
        Facts facts = new Facts(operation, engine, namespace, write, success, contextualName);
        return remote ? new Remote(facts) : new Embedded(facts);
    }

    /** An operation on a file in this process. */
    final class Embedded extends Observation.Context implements StoreOperation {
        private final Facts facts;

        Embedded(Facts facts) {
            this.facts = facts;
        }

        @Override
        public Facts facts() {
            return facts;
        }

        @Override
        public Observation.Context context() {
            return this;
        }
    }

    /** An operation on a server: a client call (nothing is propagated: a database takes no trace headers). */
    final class Remote extends SenderContext<Object> implements StoreOperation {
        private final Facts facts;

        Remote(Facts facts) {
            super((carrier, key, value) -> { }, Kind.CLIENT);
            setCarrier(new Object());
            setRemoteServiceName(facts.engine());
            this.facts = facts;
        }

        @Override
        public Facts facts() {
            return facts;
        }

        @Override
        public Observation.Context context() {
            return this;
        }
    }
}
