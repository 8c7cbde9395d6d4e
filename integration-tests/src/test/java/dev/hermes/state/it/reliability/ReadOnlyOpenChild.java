package dev.hermes.state.it.reliability;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.core.StateRepository;

import java.nio.file.Path;

/**
 * Opens each file given read-only through the Java API and prints one line per file:
 * {@code snapshot=<true|false> sessions=<n>}, or {@code refused <exception type>: <message>}.
 * Run by {@link ReadOnlyFolderTest} as a user who cannot write the file's folder.
 */
public final class ReadOnlyOpenChild {
    private ReadOnlyOpenChild() {
    }

    public static void main(String[] args) {
        for (String file : args) {
            try (StateRepository store = StateRepository.openReadOnly(Path.of(file))) {
                System.out.println("snapshot=" + store.isImmutableSnapshot() + " sessions=" + store.sessionCount());
            } catch (HermesStateException e) {
                System.out.println("refused " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }
}
