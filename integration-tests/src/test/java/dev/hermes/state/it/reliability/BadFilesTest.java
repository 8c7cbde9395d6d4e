package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.it.cli.Cli;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.LiveCopy;
import dev.hermes.state.core.model.SearchSessionsQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files the store must refuse (or, read-only, may read): each refusal is a typed error through the
 * API and exit code 1 with one line on stderr from the command line, and the file, any {@code -wal}
 * beside it and the folder's listing stay byte-for-byte as they were: nothing merged, nothing created.
 */
class BadFilesTest {
    /** Sessions in every fixture (MANIFEST). */
    private static final long FIXTURE_SESSIONS = 30;

    @TempDir
    Path dir;

    /** A bad file, how to make it, and what opening it read-write and read-only must give. */
    enum BadFile {
        NOT_A_DATABASE(NotAHermesDatabaseException.class, NotAHermesDatabaseException.class) {
            @Override
            Path make(Path folder) throws Exception {
                return Files.writeString(ownerOnly(folder.resolve("state.db")), "# my notes\nnot a database\n".repeat(300));
            }
        },
        ZERO_LENGTH(NotAHermesDatabaseException.class, NotAHermesDatabaseException.class) {
            @Override
            Path make(Path folder) throws Exception {
                return ownerOnly(folder.resolve("state.db"));
            }
        },
        TRUNCATED_MID_PAGE(NotAHermesDatabaseException.class, NotAHermesDatabaseException.class) {
            @Override
            Path make(Path folder) throws Exception {
                Path db = Fixtures.copy("state-v6.db", folder);
                try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
                    file.setLength(file.length() / 2 + 1000); // cut inside a page
                }
                return db;
            }
        },
        /** The -wal of an unrelated database beside a good file: SQLite would replay it into the file. */
        WAL_OF_ANOTHER_DATABASE(NotAHermesDatabaseException.class, NotAHermesDatabaseException.class) {
            @Override
            Path make(Path folder) throws Exception {
                Path db = Fixtures.copy("state-v6.db", folder);
                Path other = Files.createDirectory(folder.resolve("other")).resolve("notes.db");
                copyLiveWal(other, List.of("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
                        "INSERT INTO notes (body) SELECT hex(randomblob(300)) FROM (WITH RECURSIVE n(i) AS"
                                + " (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n)"), db);
                return db;
            }
        },
        /** The -wal of another Hermes database: its pages mixed with this file's make a corrupt whole. */
        WAL_OF_ANOTHER_HERMES_DATABASE(NotAHermesDatabaseException.class, NotAHermesDatabaseException.class) {
            @Override
            Path make(Path folder) throws Exception {
                Path db = Fixtures.copy("state-v6.db", folder);
                Path other = Fixtures.copy("state-v5.db", Files.createDirectory(folder.resolve("other")));
                copyLiveWal(other, List.of("INSERT INTO messages (session_id, role, content, timestamp)"
                                + " VALUES ('20260310_090000_8520da', 'user', 'from another file', 1)",
                        "UPDATE sessions SET message_count = message_count + 1 WHERE id = '20260310_090000_8520da'"), db);
                return db;
            }
        },
        NEWER_SCHEMA(SchemaTooNewException.class, null) {
            @Override
            Path make(Path folder) throws Exception {
                Path db = Fixtures.copy("state-v6.db", folder);
                try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
                    statement.executeUpdate("UPDATE schema_version SET version = 18");
                }
                return db;
            }
        },
        READ_ONLY_FILE(StateIOException.class, null) {
            @Override
            Path make(Path folder) throws Exception {
                Path db = Fixtures.copy("state-v6.db", folder);
                Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
                return db;
            }
        },
        READ_ONLY_FOLDER(StateIOException.class, null) {
            @Override
            Path make(Path folder) throws Exception {
                Path locked = Files.createDirectory(folder.resolve("read-only"));
                Path db = Fixtures.copy("state-v6.db", locked);
                Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
                return db;
            }
        };

        final Class<? extends HermesStateException> readWrite;
        /** Null: a read-only open works and reads the sessions. */
        final Class<? extends HermesStateException> readOnly;

        BadFile(Class<? extends HermesStateException> readWrite, Class<? extends HermesStateException> readOnly) {
            this.readWrite = readWrite;
            this.readOnly = readOnly;
        }

        abstract Path make(Path folder) throws Exception;
    }

    @AfterEach
    void unlockFolders() throws IOException {
        Path locked = dir.resolve("read-only");
        if (Files.exists(locked)) {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @ParameterizedTest
    @EnumSource(BadFile.class)
    void theApiRefusesWithATypedErrorAndChangesNothing(BadFile bad) throws Exception {
        Path db = bad.make(dir);
        Snapshot before = Snapshot.of(db);

        HermesStateException refused = assertThrows(bad.readWrite, () -> StateRepository.open(db).close(), bad.name());
        assertFalse(refused.getMessage() == null || refused.getMessage().isBlank(), "a message for " + bad);
        assertEquals(before, Snapshot.of(db), bad + ": unchanged after the read-write open was refused");

        if (bad.readOnly != null) {
            assertThrows(bad.readOnly, () -> StateRepository.openReadOnly(db).close(), bad.name() + " read-only");
        } else {
            try (StateRepository store = StateRepository.openReadOnly(db)) {
                assertEquals(FIXTURE_SESSIONS, store.sessionCount(), bad + ": read-only use works");
                assertEquals(20, store.searchSessions(new SearchSessionsQuery(null, 20, 0)).size());
            }
        }
        assertEquals(before, Snapshot.of(db), bad + ": unchanged after the read-only open");
    }

    @ParameterizedTest
    @EnumSource(BadFile.class)
    void theCommandLineExitsWithOneAndOneLineAndChangesNothing(BadFile bad) throws Exception {
        Path db = bad.make(dir);
        Snapshot before = Snapshot.of(db);

        Cli cli = new Cli(dir.resolve("hermes-home"));
        ProcessResult refused = cli.run("--db", db.toString(), "sessions", "list");
        refused.userError(Cli.PROGRAM);
        assertEquals(before, Snapshot.of(db), bad + ": unchanged after " + refused);

        ProcessResult readOnly = cli.run("--db", db.toString(), "--read-only", "--json", "sessions", "list");
        if (bad.readOnly != null) {
            readOnly.userError(Cli.PROGRAM);
        } else {
            assertEquals(0, readOnly.exitCode(), readOnly.toString());
            assertEquals("", readOnly.stderr(), readOnly.toString());
            assertTrue(readOnly.stdout().strip().startsWith("["), readOnly.toString());
        }
        assertEquals(before, Snapshot.of(db), bad + ": unchanged after " + readOnly);
    }

    /** Creates {@code other} in WAL mode, runs the statements without a checkpoint, and copies its live -wal beside {@code target}. */
    private static void copyLiveWal(Path other, List<String> statements, Path target) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(other); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("PRAGMA wal_autocheckpoint=0");
            for (String sql : statements) {
                statement.execute(sql);
            }
            Path wal = Path.of(other + "-wal");
            assertTrue(Files.size(wal) > 0, "the other database has a WAL to copy");
            LiveCopy.copy(wal, Path.of(target + "-wal"));
            Files.setPosixFilePermissions(Path.of(target + "-wal"), PosixFilePermissions.fromString("rw-------"));
        }
    }

    private static Path ownerOnly(Path file) throws IOException {
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    /**
     * sha256 of the file, its -wal and -journal (or "absent"), and the names in its folder. A -shm
     * (SQLite's shared-memory index, rebuilt from the WAL by whoever opens the file) is left out.
     */
    private record Snapshot(Map<String, String> contents, List<String> folder) {
        static Snapshot of(Path db) {
            Map<String, String> contents = new LinkedHashMap<>();
            for (String suffix : new String[] {"", "-wal", "-journal"}) {
                Path file = Path.of(db + suffix);
                contents.put(db.getFileName() + suffix, Files.exists(file) ? Fixtures.sha256(file) : "absent");
            }
            try (Stream<Path> names = Files.list(db.getParent())) {
                return new Snapshot(contents, names.map(path -> path.getFileName().toString())
                        .filter(name -> !name.endsWith("-shm")).sorted().toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
