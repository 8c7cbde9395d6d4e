package dev.hermes.state.core;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The previews on a SQLite file. */
class SessionPreviewSqliteTest extends SessionPreviewContract {
    @TempDir
    Path dir;

    @Override
    StateRepository open() {
        return StateRepository.builder().path(TestStores.newDatabase(dir, StateRepository.DEFAULT_SCHEMA_VERSION)).build();
    }
}
