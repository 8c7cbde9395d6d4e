package dev.hermes.state.memory;

import dev.hermes.state.core.StateRepository;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** Stores on real files for the adapters' tests, with a clock that ticks so that every write gets its own time. */
public final class TestStore {
    private TestStore() {
    }

    /** A new store file {@code state.db} in {@code dir} (or that file again); consecutive writes are 1 s apart. */
    public static StateRepository open(Path dir) {
        return StateRepository.builder().path(file(dir)).clock(new TickingClock()).build();
    }

    /** As {@link #open(Path)}, the store at {@code schemaVersion} (6 or 17). */
    public static StateRepository open(Path dir, int schemaVersion) {
        return StateRepository.builder().path(file(dir)).clock(new TickingClock()).schemaVersion(schemaVersion).build();
    }

    /** The store file {@link #open} opens. */
    public static Path file(Path dir) {
        return dir.resolve("state.db");
    }

    /** Advances one second every time it is read. */
    public static final class TickingClock extends Clock {
        private Instant now = Instant.parse("2026-03-10T09:00:00Z");

        @Override
        public synchronized Instant instant() {
            now = now.plusSeconds(1);
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
