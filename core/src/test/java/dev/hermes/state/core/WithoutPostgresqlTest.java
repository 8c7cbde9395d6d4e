package dev.hermes.state.core;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A user of files depends on core alone and gets neither the PostgreSQL module nor pgjdbc nor HikariCP
 * (core's dependency on them is optional). Run for real: a child JVM on this test's class path without
 * those jars opens a copy of an agent's file, migrates and reads it; a PostgreSQL URL there is refused
 * with a typed error that names the artifact to add. On the whole class path, opening a file loads no
 * class of the module or of HikariCP, and no connection class of pgjdbc, either.
 */
class WithoutPostgresqlTest {
    private static final String SESSION = "20260312_144218_15c4f9";
    private static final String URL = "postgresql://hermes:secret@localhost:5432/agents";
    private static final String REFUSAL = "invalid_argument: A PostgreSQL store needs dev.hermes:hermes-state-postgresql"
            + " on the class path (it brings the PostgreSQL JDBC driver and HikariCP); add that dependency:"
            + " dev.hermes.state.postgresql.PostgresLocation is not there";

    @TempDir
    Path dir;

    /** The engine's jars: the module (a folder of classes in a reactor build, a jar otherwise), pgjdbc, HikariCP. */
    private static boolean isPostgresql(String entry) {
        String path = entry.replace('\\', '/');
        return path.endsWith("/postgresql/target/classes") || path.contains("/hermes-state-postgresql-")
                || path.contains("/org/postgresql/postgresql/") || path.contains("/com/zaxxer/HikariCP/");
    }

    @Test
    void aFileOpensAndReadsWithoutThePostgresqlJarsAndAUrlSaysWhatToAdd() throws Exception {
        List<String> full = Command.testClassPath();
        List<String> withoutPostgresql = full.stream().filter(entry -> !isPostgresql(entry)).toList();
        assertEquals(3, full.size() - withoutPostgresql.size(), "the module, pgjdbc and HikariCP are left out of " + full);
        Path file = Fixtures.copy("state-v6.db", dir);
        long sessions = SqliteFiles.number(file, "SELECT count(*) FROM sessions");

        ProcessResult result = Command.javaOn(withoutPostgresql, List.of(), FileWithoutPostgresqlChild.class,
                file.toString(), URL).run().ok();

        assertEquals(List.of(
                "missing org.postgresql.Driver",
                "missing com.zaxxer.hikari.HikariDataSource",
                "missing dev.hermes.state.postgresql.PostgresLocation",
                "sessions " + sessions,
                "title test_project",
                "url " + REFUSAL,
                "location " + REFUSAL), result.stdout().lines().toList());
    }

    @Test
    void openingAFileLoadsNoClassOfThePostgresqlModuleOrHikari() throws Exception {
        Path file = Fixtures.copy("state-v6.db", dir);
        Path loaded = dir.resolve("classes.log");
        long sessions = SqliteFiles.number(file, "SELECT count(*) FROM sessions");

        ProcessResult result = Command.java(List.of("-Xlog:class+load=info:file=" + loaded), FileWithoutPostgresqlChild.class,
                file.toString()).run().ok();

        assertEquals(List.of(
                "present org.postgresql.Driver",
                "present com.zaxxer.hikari.HikariDataSource",
                "present dev.hermes.state.postgresql.PostgresLocation",
                "sessions " + sessions,
                "title test_project"), result.stdout().lines().toList());
        List<String> lines = Files.readAllLines(loaded);
        assertEquals(true, lines.stream().anyMatch(line -> line.contains("dev.hermes.state.core.StateRepository ")),
                "the log lists the classes the child loaded");
        // java.sql.DriverManager loads every driver on the class path as it starts (org.postgresql.Driver
        // registers itself, with a few utility classes): the JDK's doing, not ours; a connection's classes are not
        assertEquals(List.of(), lines.stream().filter(line -> line.contains(" org.postgresql.core.")
                || line.contains(" org.postgresql.jdbc.Pg") || line.contains(" com.zaxxer.")
                || line.contains(" dev.hermes.state.postgresql.")).toList());
    }

    /**
     * Without the engine's jars, a failure is typed by the engine it was chosen for, never by what the
     * class path holds: a DataSource that cannot connect is an I/O failure, PostgreSQL's rules are
     * refused by the artifact's name, SQLite's serve.
     */
    @Test
    void failuresAreTypedByTheirEngineWithoutThePostgresqlJars() throws Exception {
        List<String> withoutPostgresql = Command.testClassPath().stream().filter(entry -> !isPostgresql(entry)).toList();

        ProcessResult result = Command.javaOn(withoutPostgresql, List.of(), FailuresWithoutPostgresqlChild.class).run().ok();

        assertEquals(List.of(
                "dataSource io: Cannot connect while connecting through the application's DataSource: Connection refused",
                "postgresql " + REFUSAL,
                "sqlite busy: Database is busy (locked by another connection) while testing; gave up after the configured retries"),
                result.stdout().lines().toList());
    }

    // the program these tests start in a child JVM

    /**
     * Says which of the engine's classes its class path has (found as resources: nothing is loaded),
     * opens the file read-write (migrating it), prints what it reads, then, given a URL, opens it by
     * {@code url} and by {@code location} and prints the refusal's type and message.
     */
    static final class FileWithoutPostgresqlChild {
        public static void main(String[] args) {
            for (String name : List.of("org.postgresql.Driver", "com.zaxxer.hikari.HikariDataSource",
                    "dev.hermes.state.postgresql.PostgresLocation")) {
                boolean present = ClassLoader.getSystemResource(name.replace('.', '/') + ".class") != null;
                System.out.println((present ? "present " : "missing ") + name);
            }
            try (StateRepository store = StateRepository.open(Path.of(args[0]))) {
                System.out.println("sessions " + store.dsl().fetchCount(dev.hermes.state.db.Tables.SESSIONS));
                System.out.println("title " + store.getSession(SESSION).orElseThrow().title());
            }
            if (args.length > 1) {
                System.out.println("url " + refusal(() -> StateRepository.builder().url(args[1]).build()));
                System.out.println("location " + refusal(() -> StateRepository.builder().location(args[1]).build()));
            }
        }

        private static String refusal(java.util.function.Supplier<StateRepository> open) {
            try (StateRepository unexpected = open.get()) {
                return "opened " + unexpected;
            } catch (HermesStateException e) {
                return e.type().wireName() + ": " + e.getMessage();
            }
        }
    }

    /** Types three failures on a class path without the engine's jars and prints each as type and message. */
    static final class FailuresWithoutPostgresqlChild {
        public static void main(String[] args) {
            javax.sql.DataSource refusing = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
                    FailuresWithoutPostgresqlChild.class.getClassLoader(), new Class<?>[] {javax.sql.DataSource.class},
                    (proxy, method, arguments) -> switch (method.getName()) {
                        case "getConnection" -> throw new java.sql.SQLException("Connection refused", "08001");
                        case "toString" -> "a DataSource whose server refuses";
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == arguments[0];
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
            System.out.println("dataSource " + refusal(() -> StateRepository.builder().dataSource(refusing).build()));
            try {
                System.out.println("postgresql unexpectedly " + dev.hermes.state.migrations.StoreEngine.POSTGRESQL.failures());
            } catch (HermesStateException e) {
                System.out.println("postgresql " + e.type().wireName() + ": " + e.getMessage());
            }
            RuntimeException busy = dev.hermes.state.migrations.StoreEngine.SQLITE.failures()
                    .translate(new java.sql.SQLException("[SQLITE_BUSY] database is locked", null, 5), "testing");
            System.out.println("sqlite " + ((HermesStateException) busy).type().wireName() + ": " + busy.getMessage());
        }

        private static String refusal(java.util.function.Supplier<StateRepository> open) {
            return FileWithoutPostgresqlChild.refusal(open);
        }
    }
}
