package dev.hermes.state.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one place rule, for code not written yet: in the main sources of every module, files are opened
 * with Java I/O, and SQLite connections to files are made, only in {@code dev.hermes.state.sqlite.LiveFiles}
 * (which keeps Java descriptors away from files this process has open through SQLite: closing one
 * drops every SQLite lock of the process on the file) and in the places listed here, none of which
 * opens a database file. A new one fails this test until it goes through LiveFiles or is listed,
 * with the reason it cannot be a database file.
 */
class FileAccessSourceTest {
    private static final Pattern OPENS_A_FILE = Pattern.compile("Files\\.(newInputStream|newOutputStream|newByteChannel"
            + "|newBufferedReader|newBufferedWriter|readAllBytes|readString|readAllLines|lines|write|writeString|copy|mismatch)\\("
            + "|(FileChannel|AsynchronousFileChannel)\\.open\\("
            + "|new (RandomAccessFile|FileInputStream|FileOutputStream|FileReader|FileWriter|SQLiteDataSource|JDBC4Connection)\\("
            + "|DriverManager\\.getConnection\\(");

    /** A known use: the source file, a piece of its line, and why it is no database file. */
    private record Known(String file, String line, String why) {
        boolean matches(String path, String text) {
            return path.endsWith(file) && text.contains(line);
        }
    }

    private static final List<Known> KNOWN = List.of(
            new Known("sqlite/LiveFiles.java", "Files.newInputStream(file)", "the one place: raw reads, refused while the file is open"),
            new Known("sqlite/LiveFiles.java", "FileChannel.open(file, StandardOpenOption.READ)",
                    "the one place: a flush to disk, refused while the file is open"),
            new Known("migrations/SqliteMigration.java", "\"jdbc:sqlite::memory:\"", "an in-memory database, no file"),
            new Known("migrations/ColumnReconciliation.java", "\"jdbc:sqlite::memory:\"",
                    "an in-memory database, no file: version 1's column declarations read by SQLite"),
            new Known("postgresql/PostgresLocation.java", "DriverManager.getConnection(jdbcUrl()", "a PostgreSQL server, no file"),
            new Known("cli/HermesStateCli.java", "new FileOutputStream(FileDescriptor.", "stdout and stderr"),
            new Known("command/SessionsCommand.java", "Files.newByteChannel(file,", "export --out, refused when it is the database"),
            new Known("command/SessionsCommand.java", "Files.newOutputStream(file)", "export --out, refused when it is the database"),
            new Known("launch/SqliteLibraryExport.java", "Files.copy(in, partial,", "the SQLite native library, a build step"),
            new Known("launch/ClassListMerge.java", "Files.write(Path.of(args[0]), merge(inputs)", "the class-data archive's class list, a build step"),
            new Known("launch/ClassListMerge.java", "Files.readAllLines(list,", "the training runs' class lists, a build step"),
            new Known("process/Child.java", "Files.readAllLines(stderrFile)", "a benchmark child's stderr"),
            new Known("process/ExportProcess.java", "Files.newOutputStream(out)", "the benchmark's export output (JSON lines)"),
            new Known("process/ProcStatus.java", "Path.of(\"/proc/self/status\")", "/proc"),
            new Known("bench/Benchmark.java", "Path.of(\"/proc/cpuinfo\")", "/proc"),
            new Known("workload/W6Export.java", "Files.newInputStream(file)", "the digest of an export's JSON lines"),
            new Known("workload/W8ColdOpen.java", "Files.newOutputStream(jar)", "a launcher jar the benchmark writes"),
            new Known("process/ChildLogin.java", "Files.writeString(file, content", "a benchmark child's 0600 password file"),
            new Known("export/MarkdownExport.java", "Files.write(folder.resolve(name)", "export --format md: one file per session"),
            new Known("export/MarkdownExport.java", "Files.writeString(folder.resolve(SUMS)", "export --format md: the SHA256SUMS file"));

    @Test
    void javaIoOnFilesAndConnectionsToFilesAreOnlyWhereTheyAreKnown() throws IOException {
        Path root = Path.of(System.getProperty("hermes.repo.root", "..")).toAbsolutePath().normalize();
        List<String> unknown = new ArrayList<>();
        List<Known> seen = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(root)) {
            sources = files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> root.relativize(path).toString().replace('\\', '/').matches("[^/]+/src/main/java/.*"))
                    // the test-support module's "main" code is test code: it copies and hashes fixture files for tests
                    .filter(path -> !root.relativize(path).startsWith("test-support"))
                    .sorted().toList();
        }
        assertTrue(sources.size() > 100, "the main sources were found under " + root + ": " + sources.size());
        for (Path source : sources) {
            String path = source.toString().replace('\\', '/');
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                String text = lines.get(i);
                if (!OPENS_A_FILE.matcher(text).find()) {
                    continue;
                }
                Known known = KNOWN.stream().filter(k -> k.matches(path, text)).findFirst().orElse(null);
                if (known == null) {
                    unknown.add(root.relativize(source) + ":" + (i + 1) + ": " + text.strip());
                } else {
                    seen.add(known);
                }
            }
        }
        assertEquals(List.of(), unknown, "Java I/O or a SQLite connection outside dev.hermes.state.sqlite.LiveFiles:"
                + " open database files through SqliteConnections/LiveFiles, or list the use here with why it is no database file");
        assertEquals(List.of(), KNOWN.stream().filter(k -> !seen.contains(k)).toList(), "listed uses that are gone");
    }
}
