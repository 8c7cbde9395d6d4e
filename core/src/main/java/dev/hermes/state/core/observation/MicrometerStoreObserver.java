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

import io.micrometer.common.KeyValues;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
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
    private static final String REPOSITORY = "dev.hermes.state.core.StateRepository";
    private static final StackWalker WALKER = StackWalker.getInstance();
    private static final StackWalker CLASS_WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final StoreOperationConvention CONVENTION = new StoreOperationConvention();
    /** Read from the stack each time: the work's call site is not directly in a public store method. */
    private static final String WALK = "";
    /**
     * The operation's name per call site (the class of the work a store method hands the connection
     * layer: one per lambda): walking the stack costs about 0.5 µs a frame, 3-6 µs per operation,
     * more than Micrometer's own handlers.
     */
    private static final ClassValue<String> SITES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> site) {
            return siteName(site);
        }
    };

    private final @Nullable ObservationRegistry observations;
    private final @Nullable MeterRegistry meters;
    private final String engine;
    private final String namespace;
    private final boolean remote;
    private final @Nullable Timer lockWait;
    private final List<Meter> bound = new ArrayList<>();
    /** A success's tags per operation, built once for this store (its engine and namespace are fixed). */
    private final ConcurrentHashMap<String, KeyValues> successes = new ConcurrentHashMap<>();

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
    public Operation start(Kind kind, Object site) {
        ObservationRegistry registry = observations;
        if (registry == null) {
            // meters only: the name is needed for a retry's counter alone, read then
            return new Observed(null, site, null);
        }
        String operation = operationName(site);
        StoreOperation context = StoreOperation.of(operation, engine, namespace, kind == Kind.WRITE, remote,
                successes.computeIfAbsent(operation, name -> StoreOperationConvention.keyValues(name, engine, namespace, null)));
        return new Observed(operation, site, Observation.createNotStarted(null, CONVENTION, context::context, registry).start());
    }

    /** The operation {@code site}'s unit of work belongs to: remembered per call site when that is exact. */
    static String operationName(Object site) {
        String known = SITES.get(site.getClass());
        return known.isEmpty() ? operationName() : known;
    }

    /**
     * The name to remember for a call site, or {@link #WALK}: only a lambda of {@code StateRepository}
     * whose unit of work starts directly in a public method of it has one name whoever calls it
     * (that method's: overloads share it). A site in a helper, in another core class, or in the
     * connection layer itself (a checkpoint's) is read from the stack every time, as the outermost
     * store method.
     */
    private static String siteName(Class<?> site) {
        if (!site.getName().startsWith(REPOSITORY + "$$")) {
            return WALK;
        }
        return CLASS_WALKER.walk(frames -> {
            for (Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext(); ) {
                StackWalker.StackFrame frame = it.next();
                String type = frame.getClassName();
                if (type.startsWith(CONNECTION) || type.startsWith(OBSERVATION) || type.startsWith("java.")) {
                    continue;
                }
                // the innermost store frame: the method that handed the work over
                String method = frame.getMethodName();
                if (!type.equals(REPOSITORY) || method.startsWith("lambda$")) {
                    return WALK;
                }
                for (Method declared : frame.getDeclaringClass().getMethods()) {
                    if (declared.getName().equals(method) && declared.getDeclaringClass() == frame.getDeclaringClass()) {
                        return method;
                    }
                }
                return WALK;
            }
            return WALK;
        });
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
        private final Object site;
        private final @Nullable Observation observation;

        Observed(@Nullable String operation, Object site, @Nullable Observation observation) {
            this.operation = operation;
            this.site = site;
            this.observation = observation;
        }

        @Override
        public void retried() {
            MeterRegistry registry = meters;
            if (registry != null) {
                Counter.builder("hermes.state.busy.retries")
                        .description("Attempts that met a busy or locked database and were tried again")
                        .tags("operation", operation != null ? operation : operationName(site), "engine", engine,
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
