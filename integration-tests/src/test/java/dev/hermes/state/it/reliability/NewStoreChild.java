package dev.hermes.state.it.reliability;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * Creates new stores in a process started with umask 000 (so nothing is private by accident) and
 * prints the permissions of what was created while the store is open and writing, one
 * {@code path mode} line each: a store at a path whose parent folders do not exist yet (argument 1),
 * and the default location under HERMES_HOME (set by the test to a folder that does not exist).
 */
public final class NewStoreChild {
    private NewStoreChild() {
    }

    public static void main(String[] args) throws IOException {
        Path explicit = Path.of(args[0]);
        try (StateRepository store = StateRepository.open(explicit)) {
            write(store);
            printModes(explicit);
        }
        Path defaultPath = StateRepository.defaultPath();
        try (StateRepository store = StateRepository.open()) {
            write(store);
            printModes(defaultPath);
        }
    }

    private static void write(StateRepository store) {
        store.createSession("private-1", "cli");
        store.appendMessage("private-1", NewMessage.builder("assistant").content("my bank password hint")
                .toolCalls(ToolCalls.json(List.of(Map.of("id", "c1")))).build());
    }

    /** The database, its -wal and -shm (while the store holds them open) and every folder above it. */
    private static void printModes(Path db) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path file = Path.of(db + suffix);
            System.out.println(file + " " + (Files.exists(file) ? PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) : "missing"));
        }
        for (Path folder = db.getParent(); folder != null; folder = folder.getParent()) {
            System.out.println(folder + " " + PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        }
    }
}
