package dev.hermes.state.core;

import dev.hermes.state.migrations.Migrator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** Files and clocks for the store's tests (the Python agent's files: {@link dev.hermes.state.testsupport.Fixtures}). */
public final class TestStores {
    /** 2026-03-10T09:00:00Z: a moment in the fixtures' date range. */
    static final Instant EPOCH = Instant.parse("2026-03-10T09:00:00Z");

    private TestStores() {
    }

    /** A store on a new file in {@code dir}, with a clock that ticks 1 ms per reading. */
    static StateRepository fresh(Path dir) {
        return fresh(dir, new TickingClock(EPOCH, Duration.ofMillis(1)));
    }

    /** A store pinned at 6 on a new file (the v6 contract's tests). */
    static StateRepository fresh(Path dir, Clock clock) {
        return fresh(dir, clock, Migrator.KEPT_VERSION);
    }

    /** A store on a new file at {@code schemaVersion} (6 or 17) in {@code dir}, opened to that version. */
    static StateRepository fresh(Path dir, Clock clock, int schemaVersion) {
        return StateRepository.builder().path(newDatabase(dir, schemaVersion)).clock(clock).schemaVersion(schemaVersion).build();
    }

    /** {@link #newDatabase(Path, int)} at 6, the version of the v6 contract's tests. */
    public static Path newDatabase(Path dir) {
        return newDatabase(dir, Migrator.KEPT_VERSION);
    }

    /**
     * A new, empty file {@code dir/state.db} at {@code schemaVersion}: a copy of one migrated once per
     * test run (running Liquibase for every test would cost a second each). Creating a file through the
     * store itself is covered by the opening tests.
     */
    public static Path newDatabase(Path dir, int schemaVersion) {
        try {
            Path target = dir.resolve("state.db");
            Files.copy(schemaVersion == Migrator.KEPT_VERSION ? Template.V6 : Template.V17, target,
                    StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Template {
        static final Path V6 = create(Migrator.KEPT_VERSION);
        static final Path V17 = create(Migrator.LATEST_VERSION);

        private static Path create(int version) {
            try {
                Path folder = Files.createTempDirectory("hermes-state-template");
                Path file = folder.resolve("state.db");
                Migrator.create().toVersion(version).migrate(file);
                folder.toFile().deleteOnExit();
                file.toFile().deleteOnExit();
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A clock that advances by a fixed step every time it is read, so consecutive writes get distinct times. */
    static final class TickingClock extends Clock {
        private final AtomicLong nanos;
        private final long stepNanos;

        TickingClock(Instant start, Duration step) {
            this.nanos = new AtomicLong(start.getEpochSecond() * 1_000_000_000L + start.getNano());
            this.stepNanos = step.toNanos();
        }

        /** Moves the clock forward without reading it. */
        void advance(Duration duration) {
            nanos.addAndGet(duration.toNanos());
        }

        @Override
        public Instant instant() {
            long now = nanos.getAndAdd(stepNanos);
            return Instant.ofEpochSecond(0, now);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
