package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import com.sun.security.auth.module.UnixSystem;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.LiveCopy;
import dev.hermes.state.testsupport.MachineRequirement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A WAL-mode file in a folder the user cannot write (a backup on read-only media, another user's
 * ~/.hermes read by an administrator) and no {@code -shm} beside it: SQLite cannot create the index
 * it needs to read the file with its locks. Read-only, it is read as an immutable snapshot when no
 * {@code -wal} with changes lies beside it (and says so), and refused with what to do when one does.
 *
 * <p>Root writes any folder whatever its permission bits, so when the tests run as root (CI does)
 * the readers run as {@code nobody} ({@code runuser}, else {@code setpriv}); the command-line jar,
 * a class of this test and the files are copied to a folder under /tmp that nobody can read.
 * Without a way to drop privileges the test fails under CI=true and is skipped elsewhere.
 */
class ReadOnlyFolderTest {
    private static final String CHILD = ReadOnlyOpenChild.class.getName();

    private Path work;

    @BeforeEach
    void readableWorkFolder() throws IOException {
        work = Files.createTempDirectory(Path.of("/tmp"), "hermes-read-only-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void removeWorkFolder() throws IOException {
        if (work == null) {
            return;
        }
        try (Stream<Path> all = Files.walk(work)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                if (Files.isDirectory(path)) {
                    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
                }
            }
        }
        try (Stream<Path> all = Files.walk(work)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Test
    void aWalFileWithoutItsIndexIsReadAsASnapshotOrRefusedWithWhatToDo() throws Exception {
        List<String> asUser = unprivileged();
        Path jar = copyReadable(Path.of(System.getProperty("hermes.cli.jar")), work.resolve("bin/hermes-state.jar"));
        Path classes = work.resolve("bin/classes");
        String childClass = CHILD.replace('.', '/') + ".class";
        copyReadable(Path.of(ReadOnlyOpenChild.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(childClass), classes.resolve(childClass));

        Path clean = store("clean", 3);
        assertEquals("wal", journalMode(clean));
        assertEquals(List.of("state.db"), names(clean.getParent()), "closed cleanly: no -wal, no -shm");
        Path withLog = copiedWithUncheckpointedLog(store("live", 3), "with-log");
        Path rollback = store("rollback", 3);
        try (Connection connection = SqliteFiles.readWrite(rollback); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = DELETE");
        }
        Path hotJournal = copiedWithHotJournal(rollback, "hot-journal");
        Map<Path, List<String>> before = new HashMap<>();
        for (Path db : List.of(clean, withLog, rollback, hotJournal)) {
            lockFolder(db.getParent());
            before.put(db, names(db.getParent()));
        }

        Run api = run(asUser, List.of(java(), "-cp", jar + ":" + classes, CHILD, clean.toString(), withLog.toString(),
                rollback.toString(), hotJournal.toString()));
        assertEquals(0, api.exit(), api.toString());
        assertEquals(4, api.out().size(), api.toString());
        assertEquals("snapshot=true sessions=3", api.out().get(0), api.toString());
        assertEquals("refused StateIOException: " + refusal(withLog), api.out().get(1), api.toString());
        assertEquals("snapshot=false sessions=3", api.out().get(2), "a rollback-journal file is read with its locks");
        assertTrue(api.out().get(3).startsWith("refused StateIOException: " + hotJournal + " holds a transaction that a"
                + " writer left unfinished"), "never a snapshot of a file with a transaction to roll back: " + api);

        Run list = run(asUser, List.of(java(), "-jar", jar.toString(), "--db", clean.toString(), "--read-only", "--json",
                "sessions", "list"));
        assertEquals(0, list.exit(), list.toString());
        String json = String.join("\n", list.out());
        assertTrue(json.startsWith("[") && json.contains("\"ro-0\"") && json.contains("\"ro-2\""), list.toString());
        assertEquals(List.of("hermes-state: note: reading " + clean + " as an immutable snapshot (its folder is read-only"
                + " and has no state.db-shm); changes made to it meanwhile are not seen"), list.err(), list.toString());

        Run refused = run(asUser, List.of(java(), "-jar", jar.toString(), "--db", withLog.toString(), "--read-only",
                "sessions", "list"));
        assertEquals(1, refused.exit(), refused.toString());
        assertEquals(List.of(), refused.out(), refused.toString());
        assertEquals(List.of("hermes-state: " + refusal(withLog)), refused.err(), refused.toString());

        for (var folder : before.entrySet()) {
            assertEquals(folder.getValue(), names(folder.getKey().getParent()), "nothing was created beside " + folder.getKey());
        }
    }

    private static String refusal(Path db) {
        return db + " cannot be read in place: its state.db-wal holds changes not yet in the file, and reading them needs"
                + " a state.db-shm, which cannot be created in the read-only folder " + db.getParent()
                + ". Copy the folder (state.db with its -wal) somewhere writable and open the copy.";
    }

    /** A closed store with sessions ro-0..ro-(n-1), in WAL mode, in its own folder under the work folder. */
    private Path store(String folder, int sessions) throws IOException {
        Path db = Files.createDirectory(work.resolve(folder)).resolve("state.db");
        try (StateRepository store = StateRepository.open(db)) {
            for (int i = 0; i < sessions; i++) {
                store.createSession("ro-" + i, "cli");
            }
        }
        return db;
    }

    /** The file and its log as a copy taken while a writer had a commit in the log only (no -shm copied). */
    private Path copiedWithUncheckpointedLog(Path live, String folder) throws Exception {
        Path copy = Files.createDirectory(work.resolve(folder)).resolve("state.db");
        try (Connection writer = SqliteFiles.readWrite(live); Statement statement = writer.createStatement()) {
            statement.execute("PRAGMA wal_autocheckpoint = 0");
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('only-in-the-log', 'cli', 1)");
            LiveCopy.copy(live, copy);
            LiveCopy.copy(Path.of(live + "-wal"), Path.of(copy + "-wal"));
        }
        assertTrue(Files.size(Path.of(copy + "-wal")) > 32);
        return copy;
    }

    /**
     * The file as a writer in rollback-journal mode left it when it died mid-transaction: changed
     * pages already in the file (a one-page cache spills them early), the originals in a hot -journal.
     */
    private Path copiedWithHotJournal(Path rollbackModeFile, String folder) throws Exception {
        Path copy = Files.createDirectory(work.resolve(folder)).resolve("state.db");
        try (Connection writer = SqliteFiles.readWrite(rollbackModeFile); Statement statement = writer.createStatement()) {
            statement.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
                    + " INSERT INTO messages (session_id, role, content, timestamp) SELECT 'ro-0', 'user', 'committed ' || i, i FROM n");
            statement.execute("PRAGMA cache_size = 1");
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("UPDATE messages SET content = content || ' never committed'");
            LiveCopy.copy(rollbackModeFile, copy);
            LiveCopy.copy(Path.of(rollbackModeFile + "-journal"), Path.of(copy + "-journal"));
            statement.execute("ROLLBACK");
        }
        try (Connection reader = SqliteFiles.readOnly(copy); Statement statement = reader.createStatement()) {
            SQLException hot = assertThrows(SQLException.class, () -> statement.executeQuery("SELECT count(*) FROM messages"));
            assertTrue(hot.getMessage().contains("SQLITE_READONLY_ROLLBACK"), "the copy's journal is hot: " + hot);
        }
        return copy;
    }

    /** On a read-write connection: a read-only one would leave its -wal and -shm behind. */
    private static String journalMode(Path db) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement();
             var rows = statement.executeQuery("PRAGMA journal_mode")) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** Files readable by everyone, the folder by nobody writable: what a read-only mount or another user's folder is. */
    private static void lockFolder(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
    }

    private static Path copyReadable(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        for (Path folder = to.getParent(); folder.startsWith(Path.of("/tmp")) && !folder.equals(Path.of("/tmp"));
             folder = folder.getParent()) {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.copy(from, to);
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
        return to;
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private record Run(int exit, List<String> out, List<String> err) {
    }

    private Run run(List<String> asUser, List<String> command) throws Exception {
        List<String> full = new ArrayList<>(asUser);
        full.addAll(command);
        ChildProcess child = Command.of(full).withStdin("").withEnv("HOME", work.toString())
                .withEnv("HERMES_HOME", work.resolve("hermes-home").toString()).withEnv("LC_ALL", "C.UTF-8").start();
        int exit = child.waitFor(Duration.ofSeconds(180));
        return new Run(exit, child.lines(), child.stderr().lines().toList());
    }

    private static String java() {
        return Command.javaLauncher();
    }

    /**
     * The command prefix that runs a process as a user who cannot write the locked folders: none
     * for an ordinary user; {@code nobody} through runuser or setpriv for root.
     */
    private static List<String> unprivileged() {
        if (new UnixSystem().getUid() != 0) {
            return List.of();
        }
        Path runuser = executable("runuser");
        if (runuser != null) {
            return List.of(runuser.toString(), "-u", "nobody", "--");
        }
        Path setpriv = executable("setpriv");
        if (setpriv != null) {
            return List.of(setpriv.toString(), "--reuid=65534", "--regid=65534", "--clear-groups", "--");
        }
        MachineRequirement.require(false, "running as root without runuser or setpriv: cannot run the reader as a user"
                + " without write access");
        return List.of();
    }

    private static Path executable(String name) {
        List<String> folders = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        folders.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String folder : folders) {
            Path candidate = Path.of(folder.isEmpty() ? "." : folder, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Test
    void theUnprivilegedUserReallyCannotWriteTheLockedFolder() throws Exception {
        List<String> asUser = unprivileged();
        Path folder = Files.createDirectory(work.resolve("locked"));
        lockFolder(folder);
        Run touch = run(asUser, List.of("touch", folder.resolve("probe").toString()));
        assertFalse(touch.exit() == 0, "the reader cannot create a file in the locked folder: " + touch);
        assertFalse(Files.exists(folder.resolve("probe")));
    }
}
