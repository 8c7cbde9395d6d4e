package dev.hermes.state.cli.launch;

import org.sqlite.util.OSInfo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Build step: copies this platform's SQLite native library out of the jar, next to it. By default
 * sqlite-jdbc inflates the library (about 1 MB) from the jar into a new temporary file and checks it
 * on every start, about 150 ms of CPU per command; the root script instead points the driver at this
 * copy ({@code -Dorg.sqlite.lib.path}, {@code -Dorg.sqlite.lib.name}).
 *
 * <p>usage: {@code java -cp hermes-state.jar dev.hermes.state.cli.launch.SqliteLibraryExport FOLDER}
 */
public final class SqliteLibraryExport {
    private SqliteLibraryExport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SqliteLibraryExport FOLDER");
            System.exit(2);
        }
        String library = System.mapLibraryName("sqlitejdbc");
        String resource = "/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + library;
        Path folder = Files.createDirectories(Path.of(args[0]));
        try (InputStream in = SqliteLibraryExport.class.getResourceAsStream(resource)) {
            if (in == null) {
                System.err.println("No SQLite native library for this platform in the jar (" + resource
                        + "); sqlite-jdbc will find one at run time");
                return;
            }
            // written beside and then moved, so a concurrent start never loads a half-written file
            Path partial = Files.createTempFile(folder, library, ".part");
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, folder.resolve(library), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println(folder.resolve(library));
    }
}
