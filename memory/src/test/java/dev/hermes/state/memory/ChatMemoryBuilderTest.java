package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;

class ChatMemoryBuilderTest {
    @TempDir
    Path dir;

    /** A builder as an adapter's, its memory the conversation memory itself. */
    private static final class Builder extends ChatMemoryBuilder<Builder, String, ConversationMemory<String>> {
        Builder(StateRepository store) {
            super(store, "test");
        }

        @Override
        protected ConversationMemory<String> create(ConversationMemory<String> memory) {
            return memory;
        }
    }

    @Test
    void argumentsAreCheckedAtTheBoundary() {
        // moved here from the adapters' tests: windows(...) is no longer API
        try (StateRepository store = TestStore.open(dir)) {
            assertThrows(InvalidArgumentException.class, () -> new Builder(null));
            assertThrows(InvalidArgumentException.class, () -> new Builder(store).windows(null));
            assertThrows(InvalidArgumentException.class, () -> new Builder(store).source(" ").build());
        }
    }
}
