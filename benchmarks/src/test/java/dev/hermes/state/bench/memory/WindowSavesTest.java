package dev.hermes.state.bench.memory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The window-save benchmark at a tiny size: the counts it implies, exactly. Nothing here asserts a time. */
class WindowSavesTest {
    @Test
    void everyAddedMessageIsStoredOnceOnBothSidesAndTheWindowIsFull(@TempDir Path folder) throws Exception {
        WindowSaves.Result result = WindowSaves.run(folder, 3, 25, 10);
        assertEquals(75, result.added());
        assertEquals(75, result.storedRows());
        assertEquals(75, result.rawRows());
        assertEquals(10, result.lastWindowSize());
    }
}
