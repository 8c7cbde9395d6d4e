package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.cli.HermesStateCli;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.sqlite.SqliteFile;
import dev.hermes.state.sqlite.SqliteHeaders;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.MachineRequirement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing in this project opens the database file or its {@code -shm} of a live store with Java I/O
 * (closing such a descriptor drops every SQLite lock of the process on the file). Watched from another
 * process with Linux inotify, which reports every close of a file: SQLite, in a process that has the
 * file open, never closes a descriptor of the database (it defers closes while the process holds a
 * lock, and a WAL-mode connection always holds one) or of the {@code -shm} (kept while any connection
 * uses it). So while store A is open, a close seen on either is somebody else's descriptor. Every
 * path that inspects a file runs meanwhile: second stores by every name, the migrator, the command
 * line in this JVM, the application's own connection. A Java read of another live store's {@code -shm}
 * at the end shows that the watch sees such a close.
 */
class LiveFileDescriptorsTest {
    @TempDir
    Path dir;

    @Test
    void nothingButSqliteOpensOrClosesTheFilesOfALiveStore() throws Exception {
        SameFileStoresTest.requirePython();
        requireInotify();
        Path db = Files.createDirectory(dir.resolve("store")).resolve("state.db");
        Path control = Files.createDirectory(dir.resolve("control")).resolve("state.db");
        Path symlink = dir.resolve("symlink.db");
        Path hardLink = dir.resolve("hard-link.db");
        try (StateRepository a = StateRepository.open(db); StateRepository c = StateRepository.open(control)) {
            Files.createSymbolicLink(symlink, db);
            Files.createLink(hardLink, db);
            for (StateRepository store : List.of(a, c)) {
                store.createSession("first", "cli");
                store.appendMessage("first", NewMessage.builder("user").content("hello from the live store").build());
                assertEquals(1, store.messageCount("first")); // the read pool is open too
            }
            Path shm = Path.of(db + "-shm");
            Path controlShm = Path.of(control + "-shm");
            assertTrue(Files.exists(shm) && Files.exists(controlShm), "both stores are in WAL mode with their index open");

            ChildProcess watcher = startWatcher(db, shm, control, controlShm);
            try {
                everyPathThatLooksAtTheFile(db, symlink, hardLink);

                // the control: what the watch sees of a Java descriptor on a live store's -shm
                try (InputStream in = Files.newInputStream(controlShm)) {
                    assertEquals(48, in.readNBytes(48).length);
                }
                String controlClose = "CLOSE " + controlShm;
                assertTrue(awaitLine(watcher, controlClose), "the watch saw the control's close\n" + watcher.transcript());
                List<String> closes = new ArrayList<>();
                for (String line : watcher.lines()) {
                    if (line.startsWith("CLOSE ") && !line.equals(controlClose)) {
                        closes.add(line);
                    }
                }
                assertEquals(List.of(), closes, "descriptors of the live store's database or -shm were closed by this JVM"
                        + " outside SQLite\n" + watcher.transcript());
                assertTrue(watcher.lines().contains("OPEN " + db), "the watch saw SQLite open the database by every name\n"
                        + watcher.transcript());
            } finally {
                watcher.kill();
            }
            assertEquals(2, a.messageCount("first"), "store A sees the second stores' writes");
        }
    }

    /** Everything that inspects or opens a store file, with store A open on it. */
    private void everyPathThatLooksAtTheFile(Path db, Path symlink, Path hardLink) throws Exception {
        for (Path name : List.of(db, symlink, hardLink)) {
            try (StateRepository readOnly = StateRepository.openReadOnly(name)) {
                assertTrue(readOnly.getSession("first").isPresent());
            }
        }
        try (StateRepository second = StateRepository.open(hardLink)) {
            second.appendMessage("first", NewMessage.builder("assistant").content("from a second store").build());
        }
        try (StateRepository third = StateRepository.open(symlink)) {
            assertEquals(2, third.messageCount("first"));
        }
        Migrator migrator = Migrator.create();
        assertEquals(StateRepository.DEFAULT_SCHEMA_VERSION, migrator.checkReadable(db));
        assertTrue(migrator.status(hardLink).upToDate());
        assertTrue(migrator.migrate(symlink).fastPath());
        assertTrue(migrator.dryRun(db).fastPath());
        assertFalse(SqliteHeaders.hasUnindexedWal(db));
        SqliteFile.checkReadable(db);
        assertTrue(SqliteFile.prepareForWriting(db));
        try (Connection application = SqliteFiles.readOnly(db); Statement statement = application.createStatement()) {
            statement.executeQuery("SELECT count(*) FROM messages").close();
        }

        assertEquals(0, cli("--db", db.toString(), "status").exitCode(), "status");
        assertEquals(0, cli("--db", db.toString(), "--json", "sessions", "list").exitCode(), "sessions list");
        assertEquals(0, cli("--db", hardLink.toString(), "--read-only", "stats").exitCode(), "stats");
        assertEquals(0, cli("--db", symlink.toString(), "search", "hello").exitCode(), "search");
        assertEquals(0, cli("--db", db.toString(), "sessions", "export", "--out", dir.resolve("export.jsonl").toString())
                .exitCode(), "export");
        Cli refused = cli("--db", db.toString(), "sessions", "export", "--out", db + "-shm");
        assertEquals(1, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("is the database itself (or its -wal, -shm or -journal)"), refused.err());
        refused = cli("--db", symlink.toString(), "sessions", "export", "--out", hardLink.toString());
        assertEquals(1, refused.exitCode(), refused.err());
    }

    private record Cli(int exitCode, String out, String err) {
    }

    /** The command line, run in this JVM (the same process as store A). */
    private static Cli cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HermesStateCli.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private ChildProcess startWatcher(Path... files) throws Exception {
        Path script = dir.resolve("close_watcher.py");
        try (InputStream in = LiveFileDescriptorsTest.class.getResourceAsStream("/reliability/close_watcher.py")) {
            Files.copy(in, script);
        }
        List<String> command = new ArrayList<>(List.of("python3", script.toString()));
        for (Path file : files) {
            command.add(file.toString());
        }
        ChildProcess watcher = Command.of(command).withStdin("").start();
        assertTrue(watcher.awaitLines(1, Duration.ofSeconds(30)) && watcher.lines().get(0).equals("READY"),
                "the inotify watch started\n" + watcher.transcript());
        return watcher;
    }

    private static boolean awaitLine(ChildProcess watcher, String line) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!watcher.lines().contains(line)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Linux's inotify is what sees the closes; elsewhere the test skips, except in CI, where it fails. */
    private static void requireInotify() {
        MachineRequirement.require(Files.isDirectory(Path.of("/proc/sys/fs/inotify")), "this test needs Linux inotify");
    }
}
