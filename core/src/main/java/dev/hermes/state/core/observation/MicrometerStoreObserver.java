package dev.hermes.state.core.observation;

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

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The store's operations as Micrometer observations (a timer, and a span when a tracer is there),
 * plus the store's own meters: busy retries, the wait for the write lock, the write-ahead log's size,
 * the read connections, and for the pools it opens on a server, HikariCP's own metrics.
 *
 * <p>The operation's name is the outermost core method on the caller's stack (the
 * {@code StateRepository} method the application called), read only while observing and, where
 * that gives the same name every time, once per call site: the store's call sites stay as they
 * are, and a store nobody observes never walks a stack.
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
    /** A success's tags and the span's name per operation, built once for this store (its engine and namespace are fixed). */
    private final ConcurrentHashMap<String, Named> named = new ConcurrentHashMap<>();

    private record Named(KeyValues success, String contextualName) {
    }

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
        database.source().publishPoolMetrics(meters);
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
        Named named = named(operation);
        StoreOperation context = StoreOperation.of(operation, engine, namespace, kind == Kind.WRITE, remote,
                named.success(), named.contextualName());
        return new Observed(operation, site, Observation.createNotStarted(null, CONVENTION, context::context, registry).start());
    }

    private Named named(String operation) {
        Named known = named.get(operation);
        if (known == null) {
            known = named.computeIfAbsent(operation, name -> new Named(
                    StoreOperationConvention.keyValues(name, engine, namespace, null),
                    StoreOperationConvention.contextualName(name, namespace)));
        }
        return known;
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
    private static final ClassValue<Optional<Set<String>>> DELEGATED = new ClassValue<>() {
        @Override
        protected Optional<Set<String>> computeValue(Class<?> type) {
            return delegated(type);
        }
    };

    /**
     * The methods of {@code type} that a method of it of another name calls (sessionCount calls
     * getSessionCount: a unit of work in getSessionCount is sessionCount's when that is what the
     * application called), read from its class file: the invoke instructions' targets per method. A
     * byte that only looks like an invoke can add a name (that name is then read from the stack each
     * time), never leave one out. Empty when the class file cannot be read.
     */
    static Optional<Set<String>> delegated(Class<?> type) {
        String self = type.getName().replace('.', '/');
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            if (in == null) {
                return Optional.empty();
            }
            DataInputStream data = new DataInputStream(new BufferedInputStream(in));
            data.readInt();
            data.readUnsignedShort();
            data.readUnsignedShort();
            int count = data.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNames = new int[count];
            int[] refClass = new int[count];
            int[] refNameAndType = new int[count];
            int[] natName = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = data.readUTF();
                    case 7 -> classNames[i] = data.readUnsignedShort();
                    case 8, 16, 19, 20 -> data.readUnsignedShort();
                    case 3, 4, 9, 17, 18 -> data.readInt();
                    case 10, 11 -> {
                        refClass[i] = data.readUnsignedShort();
                        refNameAndType[i] = data.readUnsignedShort();
                    }
                    case 12 -> {
                        natName[i] = data.readUnsignedShort();
                        data.readUnsignedShort();
                    }
                    case 5, 6 -> {
                        data.readLong();
                        i++;
                    }
                    case 15 -> {
                        data.readUnsignedByte();
                        data.readUnsignedShort();
                    }
                    default -> {
                        return Optional.empty();
                    }
                }
            }
            // the methods of this class that a Methodref entry names
            String[] target = new String[count];
            for (int i = 1; i < count; i++) {
                if (refClass[i] != 0 && self.equals(utf8[classNames[refClass[i]]])) {
                    target[i] = utf8[natName[refNameAndType[i]]];
                }
            }
            data.readUnsignedShort();
            data.readUnsignedShort();
            data.readUnsignedShort();
            data.skipBytes(2 * data.readUnsignedShort());
            int fields = data.readUnsignedShort();
            for (int f = 0; f < fields; f++) {
                data.skipBytes(6);
                skipAttributes(data);
            }
            Set<String> delegated = new HashSet<>();
            int methods = data.readUnsignedShort();
            for (int m = 0; m < methods; m++) {
                data.readUnsignedShort();
                String name = utf8[data.readUnsignedShort()];
                data.readUnsignedShort();
                int attributes = data.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    data.readUnsignedShort();
                    byte[] body = new byte[data.readInt()];
                    data.readFully(body);
                    for (int b = 0; b + 2 < body.length; b++) {
                        int op = body[b] & 0xff;
                        if (op >= 0xb6 && op <= 0xb9) { // invokevirtual, invokespecial, invokestatic, invokeinterface
                            int index = ((body[b + 1] & 0xff) << 8) | (body[b + 2] & 0xff);
                            if (index > 0 && index < count && target[index] != null && !target[index].equals(name)) {
                                delegated.add(target[index]);
                            }
                        }
                    }
                }
            }
            return Optional.of(delegated);
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    private static void skipAttributes(DataInputStream data) throws IOException {
        int attributes = data.readUnsignedShort();
        for (int a = 0; a < attributes; a++) {
            data.readUnsignedShort();
            data.skipBytes(data.readInt());
        }
    }

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
                Optional<Set<String>> delegated = DELEGATED.get(frame.getDeclaringClass());
                if (delegated.isEmpty() || delegated.get().contains(method)) {
                    return WALK; // another store method may call this one: the outer one names the operation
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
