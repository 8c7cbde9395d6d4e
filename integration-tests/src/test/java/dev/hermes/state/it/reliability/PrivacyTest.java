package dev.hermes.state.it.reliability;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file holds private conversations: a new state.db and its -wal/-shm are created owner-only
 * (0600) and the folders created for it 0700, even when the process's umask would allow more; an
 * existing file's permissions are never loosened by anything the store does.
 */
class PrivacyTest {
    @TempDir
    Path dir;

    @Test
    void newStoresTheirWalAndShmAndTheirNewFoldersAreOwnerOnlyEvenWithUmaskZero() throws Exception {
        Path explicit = dir.resolve("created/by/open/state.db");
        Path home = dir.resolve("hermes-home/profile");
        List<String> command = new ArrayList<>(List.of("sh", "-c", "umask 000 && exec \"$0\" \"$@\""));
        command.addAll(Command.java(NewStoreChild.class, explicit.toString()).argv());
        ProcessResult child = Command.of(command).withEnv("HERMES_HOME", home.toString()).run();
        assertEquals(0, child.exitCode(), child.toString());

        Map<String, String> modes = new LinkedHashMap<>();
        for (String line : child.lines()) {
            int space = line.lastIndexOf(' ');
            modes.put(line.substring(0, space), line.substring(space + 1));
        }
        Map<String, String> expected = new LinkedHashMap<>();
        for (Path db : List.of(explicit, home.resolve("state.db"))) {
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                expected.put(db + suffix, "rw-------");
            }
        }
        for (Path folder : List.of(dir.resolve("created"), dir.resolve("created/by"), dir.resolve("created/by/open"),
                dir.resolve("hermes-home"), home)) {
            expected.put(folder.toString(), "rwx------");
        }
        Map<String, String> seen = new TreeMap<>();
        expected.keySet().forEach(path -> seen.put(path, modes.getOrDefault(path, "not reported")));
        assertEquals(new TreeMap<>(expected), seen, child.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-------", "rw-r-----", "rw-rw----"})
    void anExistingFilesPermissionsSurviveOpenWritesCheckpointVacuumPruneAndClose(String mode) throws Exception {
        Path db = dir.resolve("state.db");
        StateRepository.open(db).close();
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString(mode));

        try (StateRepository store = StateRepository.open(db)) {
            assertModes(db, mode, "after open");
            store.createSession("old", "cli");
            store.createSession("live", "cli");
            for (int i = 0; i < 60; i++) { // past the checkpoint every 50 writes
                store.appendMessage(i % 2 == 0 ? "old" : "live", NewMessage.of("user", "message " + i));
            }
            assertModes(db, mode, "after 60 writes");
            store.checkpoint();
            assertModes(db, mode, "after a checkpoint");
            store.endSession("old", "cli_close");
            assertEquals(1, store.pruneSessions(Duration.ZERO, null).count());
            assertModes(db, mode, "after a prune");
            store.vacuum();
            assertModes(db, mode, "after VACUUM");
        }
        assertModes(db, mode, "after close");
        try (StateRepository readOnly = StateRepository.openReadOnly(db)) {
            assertEquals(1, readOnly.sessionCount());
        }
        assertModes(db, mode, "after a read-only open");
    }

    @Test
    void adoptingAnAgentFileKeepsItsPermissions() throws Exception {
        Path db = Fixtures.copy("state-v2.db", dir);
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r-----"));
        try (StateRepository store = StateRepository.open(db)) {
            store.appendMessage("20260310_090000_8520da", NewMessage.of("user", "after adoption"));
            assertModes(db, "rw-r-----", "after migrating v2 to v6 and writing");
        }
        assertModes(db, "rw-r-----", "after close");
    }

    /** The database keeps {@code mode}; a -wal or -shm beside it never grants anything the database does not. */
    private static void assertModes(Path db, String mode, String when) throws Exception {
        assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(db)), "state.db " + when);
        Set<PosixFilePermission> allowed = PosixFilePermissions.fromString(mode);
        for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
            Path companion = Path.of(db + suffix);
            if (Files.exists(companion)) {
                Set<PosixFilePermission> granted = Files.getPosixFilePermissions(companion);
                assertTrue(allowed.containsAll(granted), companion.getFileName() + " is "
                        + PosixFilePermissions.toString(granted) + ", looser than the database's " + mode + " " + when);
            }
        }
    }
}
