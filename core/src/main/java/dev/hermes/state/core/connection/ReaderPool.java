package dev.hermes.state.core.connection;

import dev.hermes.state.StateIOException;
import dev.hermes.state.core.backend.Transaction;
import org.jooq.ConnectionProvider;
import org.jooq.exception.DataAccessException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;

/**
 * At most {@code size} read connections, opened on first need (a command that reads once opens one
 * connection, not a pool) and reused until the store closes. No background thread: SQLite
 * connections do not go stale. A pooled source's connections are not kept ({@code keepIdle} false):
 * each goes back to the source's pool after its read, and the size only bounds how many are in use.
 * Also serves the public read-only {@code DSLContext} as a jOOQ {@link ConnectionProvider}.
 */
final class ReaderPool implements ConnectionProvider {

    /** A read connection with what is bound to it. */
    record Reader(Connection jdbc, StatementCache statements, Transaction transaction) {
    }

    /** Opens and configures a new reader. */
    @FunctionalInterface
    interface Opener {
        Reader open() throws SQLException;
    }

    /** Closes (or, for a lent connection, restores and returns) a reader. */
    @FunctionalInterface
    interface Closer {
        void close(Reader reader);
    }

    private final Semaphore permits;
    private final int size;
    private final boolean keepIdle;
    private final ConcurrentLinkedDeque<Reader> idle = new ConcurrentLinkedDeque<>();
    private final Map<Connection, Reader> byConnection = new ConcurrentHashMap<>();
    private final Opener opener;
    private final Closer closer;
    private volatile boolean closed;

    ReaderPool(int size, boolean keepIdle, Opener opener, Closer closer) {
        this.permits = new Semaphore(size, true);
        this.size = size;
        this.keepIdle = keepIdle;
        this.opener = opener;
        this.closer = closer;
    }

    /** Waits for a free reader (opening one if none is idle); give it back with {@link #giveBack}. */
    Reader borrow() throws SQLException {
        if (closed) {
            throw new StateIOException("The store is closed");
        }
        try {
            permits.acquire();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for a read connection", interrupted);
        }
        try {
            Reader reader = idle.pollFirst();
            if (reader == null) {
                reader = opener.open();
                byConnection.put(reader.jdbc(), reader);
            }
            return reader;
        } catch (SQLException | RuntimeException failure) {
            permits.release();
            throw failure;
        }
    }

    int size() {
        return size;
    }

    int inUse() {
        return size - permits.availablePermits();
    }

    int idleCount() {
        return idle.size();
    }

    void giveBack(Reader reader) {
        if (closed || !keepIdle) {
            byConnection.remove(reader.jdbc());
            closer.close(reader);
        } else {
            idle.offerFirst(reader);
        }
        permits.release();
    }

    /** Closes the idle readers now and every borrowed one when it comes back. */
    void close() {
        closed = true;
        for (Reader reader; (reader = idle.pollFirst()) != null; ) {
            byConnection.remove(reader.jdbc());
            closer.close(reader);
        }
    }

    @Override
    public Connection acquire() {
        try {
            return borrow().jdbc();
        } catch (SQLException e) {
            throw new DataAccessException("Cannot open a read connection: " + e.getMessage(), e);
        }
    }

    @Override
    public void release(Connection connection) {
        Reader reader = byConnection.get(connection);
        if (reader != null) {
            giveBack(reader);
        }
    }
}
