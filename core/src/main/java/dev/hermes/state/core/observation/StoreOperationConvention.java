package dev.hermes.state.core.observation;

import dev.hermes.state.HermesStateException;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * The names and tags of a store operation: Micrometer's dotted lower-case name
 * {@value #NAME}, OpenTelemetry's database attributes (db.system.name, db.operation.name,
 * db.namespace, error.type) and the store's own (operation, engine, outcome). All low cardinality;
 * an application can replace the convention with a {@code GlobalObservationConvention} of its own.
 */
public class StoreOperationConvention implements ObservationConvention<Observation.Context> {
    public static final String NAME = "hermes.state.operation";
    /** error.type of an operation that succeeded: a value, so that every meter of the name has the same tag keys. */
    public static final String NO_ERROR = "none";

    @Override
    public String getName() {
        return NAME;
    }

    /** OpenTelemetry's span name for a database call: the operation, then where it ran. */
    @Override
    public String getContextualName(Observation.Context observed) {
        StoreOperation context = (StoreOperation) observed;
        return context.namespace().isEmpty() ? context.operation() : context.operation() + " " + context.namespace();
    }

    /** A success's tags, built once per operation of a store: the convention is asked at start and at stop of every operation. */
    private final java.util.concurrent.ConcurrentHashMap<Key, KeyValues> successes = new java.util.concurrent.ConcurrentHashMap<>();

    private record Key(String operation, String engine, String namespace) {
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(Observation.Context observed) {
        StoreOperation context = (StoreOperation) observed;
        Throwable error = observed.getError();
        if (error == null) {
            return successes.computeIfAbsent(new Key(context.operation(), context.engine(), context.namespace()),
                    key -> keyValues(context, null));
        }
        return keyValues(context, error);
    }

    private static KeyValues keyValues(StoreOperation context, @Nullable Throwable error) {
        return KeyValues.of(
                "operation", context.operation(),
                "engine", context.engine(),
                "outcome", error == null ? "success" : "error",
                "error.type", errorType(error),
                "db.system.name", context.engine(),
                "db.operation.name", context.operation(),
                "db.namespace", context.namespace());
    }

    /** The typed failure's kind (busy, io, ...); an exception of the caller's own work: its class's simple name. */
    static String errorType(@Nullable Throwable error) {
        if (error == null) {
            return NO_ERROR;
        }
        if (error instanceof HermesStateException typed) {
            return typed.type().wireName();
        }
        return error.getClass().getSimpleName();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof StoreOperation;
    }
}
