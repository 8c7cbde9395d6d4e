package dev.hermes.state.core.connection;

/**
 * What the store tells an observer about its units of work (a read transaction, a write transaction
 * with its retries, a checkpoint or vacuum). Kept free of any metrics library so that core needs none:
 * {@link #NONE} is the default and costs a field read per unit of work; the Micrometer implementation
 * lives in {@code core.observation} and is loaded only when an application hands the builder a registry.
 */
public interface StoreObserver {

    /** Whether the unit of work reads or writes. */
    enum Kind { READ, WRITE }

    /** One unit of work, started by {@link #start}: exactly one of {@link #succeeded} / {@link #failed} ends it. */
    interface Operation {
        /** The attempt met a busy/locked database and is tried again after a back-off. */
        void retried();

        /** How long this attempt waited for the store's write lock (in this process), in nanoseconds. */
        void lockWaited(long nanos);

        void succeeded();

        /** Ends the operation with the exception the caller sees (typed when the database raised it). */
        void failed(Throwable surfaced);
    }

    /** The observer of a store nobody observes. */
    StoreObserver NONE = new StoreObserver() {
        @Override
        public Operation start(Kind kind, Object site) {
            return NO_OPERATION;
        }

        @Override
        public boolean timesLockWait() {
            return false;
        }
    };

    /** The operation of {@link #NONE}. */
    Operation NO_OPERATION = new Operation() {
        @Override
        public void retried() {
        }

        @Override
        public void lockWaited(long nanos) {
        }

        @Override
        public void succeeded() {
        }

        @Override
        public void failed(Throwable surfaced) {
        }
    };

    /**
     * A unit of work begins, on the caller's thread (the operation it belongs to can be read from the
     * stack). {@code site} is the work the store's method handed the connection layer: one class per
     * call site (a lambda's), so an observer can remember the operation's name per class instead of
     * reading the stack each time.
     */
    Operation start(Kind kind, Object site);

    /** False when nobody reads the lock wait: the store then does not take the time around the lock. */
    boolean timesLockWait();

    /** The store closes: meters bound to it are removed. */
    default void close() {
    }
}
