package dev.hermes.state.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The setting of the tests of one SPEC section: every test gets a store on a new file of its own
 * ({@link TestStores#fresh}: clock at {@link TestStores#EPOCH}, 1 ms per reading), closed after it.
 * A subclass's own {@code @BeforeEach} runs after this one, with the store open.
 */
abstract class FreshStoreTest {
    @TempDir
    private Path dir;
    /** The store under test. */
    StateRepository store;
    /** Its file, for checks with plain SQL ({@link TestStores#queryLong} and the like). */
    Path file;

    @BeforeEach
    final void openFreshStore() {
        store = TestStores.fresh(dir);
        file = dir.resolve("state.db");
    }

    @AfterEach
    final void closeStore() {
        store.close();
    }
}
