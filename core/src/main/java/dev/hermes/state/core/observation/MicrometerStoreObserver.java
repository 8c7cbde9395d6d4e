package dev.hermes.state.core.observation;

import com.zaxxer.hikari.HikariDataSource;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.connection.StoreObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The store's operations as Micrometer observations (a timer, and a span when a tracer is there),
 * plus the store's own meters: busy retries, the wait for the write lock, the write-ahead log's size,
 * the read connections, and for the pools it opens on a server, HikariCP's own metrics.
 *
 * <p>The operation's name is the outermost core method on the caller's stack (the
 * {@code StateRepository} method the application called), read only while observing: the store's
 * call sites stay as they are, and a store nobody observes never walks a stack.
 */
public final class MicrometerStoreObserver implements StoreObserver {
    private static final String CORE = "dev.hermes.state.core.";
    private static final String CONNECTION = "dev.hermes.state.core.connection.";
    private static final String OBSERVATION = "dev.hermes.state.core.observation.";
    private static final StackWalker WALKER = StackWalker.getInstance();
    private static final StoreOperationConvention CONVENTION = new StoreOperationConvention();

    private final @Nullable ObservationRegistry observations;
    private final @Nullable MeterRegistry meters;
    private final String engine;
    private final String namespace;
    private final boolean remote;
    private final @Nullable Timer lockWait;
    private final List<Meter> bound = new ArrayList<>();

    private MicrometerStoreObserver(Database database, @Nullable ObservationRegistry observations, @Nullable MeterRegistry meters) {
        this.observations = observations == null || observations.isNoop() ? null : observations;
        this.meters = meters;
        this.engine = database.engine();
        this.namespace = database.source().namespace();
        this.remote = database.source().file().isEmpty() && engine.equals("postgresql");
        if (meters == null) {
            this.lockWait = null;
            return;
        }
        Tags tags = Tags.of("engine", engine, "db.namespace", namespace);
        this.lockWait = Timer.builder("hermes.state.lock.wait")
                .description("Time a write waited for the store's write lock in this process")
                .tags(tags).register(meters);
        bound.add(lockWait);
        bound.add(Gauge.builder("hermes.state.readers.active", database, Database::readersInUse)
                .description("Read connections in use").tags(tags).register(meters));
        bound.add(Gauge.builder("hermes.state.readers.idle", database, Database::readersIdle)
                .description("Read connections open and idle").tags(tags).register(meters));
        bound.add(Gauge.builder("hermes.state.readers.max", database, Database::readersMax)
                .description("The most read connections the store uses at once").tags(tags).register(meters));
        if (database.source().file().isPresent()) {
            bound.add(Gauge.builder("hermes.state.wal.size", database, Database::walBytes)
                    .description("Size of the store file's write-ahead log").baseUnit("bytes").tags(tags).register(meters));
        }
        for (HikariDataSource pool : database.source().pools()) {
            pool.setMetricRegistry(meters);
        }
    }

    /** The observer of {@code database} for the registries given (either may be null; not both). */
    public static StoreObserver of(Database database, @Nullable ObservationRegistry observations, @Nullable MeterRegistry meters) {
        return new MicrometerStoreObserver(database, observations, meters);
    }

    @Override
    public Operation start(Kind kind) {
        ObservationRegistry registry = observations;
        if (registry == null) {
            // meters only: the name is needed for a retry's counter alone, read from the stack then
            return new Observed(null, null);
        }
        String operation = operationName();
        StoreOperation context = StoreOperation.of(operation, engine, namespace, kind == Kind.WRITE, remote);
        return new Observed(operation, Observation.createNotStarted(null, CONVENTION, context::context, registry).start());
    }

    @Override
    public boolean timesLockWait() {
        return lockWait != null;
    }

    @Override
    public void close() {
        MeterRegistry registry = meters;
        if (registry != null) {
            bound.forEach(registry::remove);
        }
    }

    /**
     * The outermost method of core (outside the connection layer and this package) on the stack, so
     * that {@code appendMessage} calling the store's own helpers is still {@code appendMessage}.
     */
    static String operationName() {
        return WALKER.walk(frames -> {
            String name = "unknown";
            boolean inCore = false;
            for (Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext(); ) {
                StackWalker.StackFrame frame = it.next();
                String type = frame.getClassName();
                if (type.startsWith(CORE)) {
                    if (!type.startsWith(CONNECTION) && !type.startsWith(OBSERVATION)
                            && !frame.getMethodName().startsWith("lambda$")) {
                        name = frame.getMethodName();
                        inCore = true;
                    }
                } else if (inCore) {
                    break;
                }
            }
            return name;
        });
    }

    private final class Observed implements Operation {
        private final @Nullable String operation;
        private final @Nullable Observation observation;

        Observed(@Nullable String operation, @Nullable Observation observation) {
            this.operation = operation;
            this.observation = observation;
        }

        @Override
        public void retried() {
            MeterRegistry registry = meters;
            if (registry != null) {
                Counter.builder("hermes.state.busy.retries")
                        .description("Attempts that met a busy or locked database and were tried again")
                        .tags("operation", operation != null ? operation : operationName(), "engine", engine,
                                "db.namespace", namespace)
                        .register(registry).increment();
            }
            if (observation != null) {
                observation.event(Observation.Event.of("busy.retry", "the database was busy: tried again"));
            }
        }

        @Override
        public void lockWaited(long nanos) {
            Timer timer = lockWait;
            if (timer != null) {
                timer.record(nanos, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void succeeded() {
            if (observation != null) {
                observation.stop();
            }
        }

        @Override
        public void failed(Throwable surfaced) {
            if (observation != null) {
                observation.error(surfaced);
                observation.stop();
            }
        }
    }
}
