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
class StoreOperationConvention implements ObservationConvention<Observation.Context> {
    static final String NAME = "hermes.state.operation";
    /** error.type of an operation that succeeded: a value, so that every meter of the name has the same tag keys. */
    static final String NO_ERROR = "none";

    @Override
    public String getName() {
        return NAME;
    }

    /** OpenTelemetry's span name for a database call: the operation, then where it ran. */
    @Override
    public String getContextualName(Observation.Context observed) {
        return ((StoreOperation) observed).contextualName();
    }

    static String contextualName(String operation, String namespace) {
        return namespace.isEmpty() ? operation : operation + " " + namespace;
    }

    /**
     * Asked at the start and at the stop of every operation: a success's tags are built once per
     * operation of a store (by its observer, handed over in the context), a failure's each time.
     */
    @Override
    public KeyValues getLowCardinalityKeyValues(Observation.Context observed) {
        StoreOperation context = (StoreOperation) observed;
        Throwable error = observed.getError();
        return error == null ? context.successKeyValues()
                : keyValues(context.operation(), context.engine(), context.namespace(), error);
    }

    static KeyValues keyValues(String operation, String engine, String namespace, @Nullable Throwable error) {
        return KeyValues.of(
                "operation", operation,
                "engine", engine,
                "outcome", error == null ? "success" : "error",
                "error.type", errorType(error),
                "db.system.name", engine,
                "db.operation.name", operation,
                "db.namespace", namespace);
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
