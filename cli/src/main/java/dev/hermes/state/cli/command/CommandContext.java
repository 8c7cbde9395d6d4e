package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.cli.json.Json;
import dev.hermes.state.cli.launch.StartupWarmup;
import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Terminal;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.StoreLocation;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What every subcommand of {@code hermes-state} shares: the global options (where the database is,
 * {@code --json}, {@code --read-only}, colours), the output streams, the exit codes and the rules for
 * opening the store. The command itself ({@code dev.hermes.state.cli.HermesStateCli}) is one; its
 * subcommands reach it as their picocli parent through this type, so that they do not depend on the
 * class that lists them.
 */
public abstract class CommandContext {
    public static final int OK = 0;
    public static final int USER_ERROR = 1;
    public static final int USAGE = 2;

    @Option(names = "--db", paramLabel = "PATH|URL", scope = ScopeType.INHERIT,
            description = "The database file (default: $HERMES_HOME/state.db, else ~/.hermes/state.db), or a PostgreSQL "
                    + "server: postgresql://user:password@host:port/dbname (or jdbc:postgresql://...).")
    private @Nullable String db;

    @Option(names = "--schema", paramLabel = "NAME", scope = ScopeType.INHERIT,
            description = "With a PostgreSQL --db: the schema the store lives in (default: hermes).")
    private @Nullable String schema;

    @Option(names = "--schema-version", paramLabel = "N", scope = ScopeType.INHERIT,
            description = "The schema version a read-write open brings the store to: 17 (today's agent) or 6, to keep"
                    + " it readable and writable by an agent of April 2026 (default: the library's).")
    private @Nullable Integer schemaVersion;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Machine-readable output: one JSON document on stdout, with Hermes' keys.")
    private boolean json;

    @Option(names = "--read-only", scope = ScopeType.INHERIT,
            description = "Open the file read-only: nothing is written (commands that change the file refuse to run).")
    private boolean readOnly;

    @Option(names = "--color", paramLabel = "WHEN", scope = ScopeType.INHERIT,
            description = "Colours and highlights: ${COMPLETION-CANDIDATES} (default: auto = when stdout is a terminal "
                    + "and NO_COLOR is unset).")
    private ColorMode color = ColorMode.AUTO;

    protected final InputStream in;
    protected final PrintStream out;
    protected final PrintStream err;

    /** When colours are used. */
    public enum ColorMode { AUTO, ALWAYS, NEVER }

    protected CommandContext(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }


    public InputStream in() {
        return in;
    }

    public PrintStream out() {
        return out;
    }

    public PrintStream err() {
        return err;
    }

    public boolean json() {
        return json;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /** The --db file, else the Hermes default location; a typed error when --db names a PostgreSQL server. */
    public Path dbPath() {
        if (dbIsUrl()) {
            throw new InvalidArgumentException("This command works on a database file; --db names a PostgreSQL server");
        }
        return db != null ? Path.of(db) : StateRepository.defaultPath();
    }

    /** The --db file when one was given (null for none or a PostgreSQL URL). */
    public @Nullable Path explicitDbPath() {
        return db == null || dbIsUrl() ? null : Path.of(db);
    }

    /** The --db text as given (a file path or a PostgreSQL URL), or null when not given. */
    public @Nullable String rawDb() {
        return db;
    }

    /** The --schema option (for PostgreSQL stores), or null when not given. */
    public @Nullable String schema() {
        return schema;
    }

    /** The --schema-version option, or null when not given (the library's default). */
    public @Nullable Integer schemaVersion() {
        return schemaVersion;
    }

    /** A store builder with the global options that apply to every store (--schema-version). */
    public StateRepository.Builder storeBuilder() {
        StartupWarmup.awaitDone(); // its classes are initialised by one thread at a time
        StateRepository.Builder builder = StateRepository.builder();
        return schemaVersion == null ? builder : builder.schemaVersion(schemaVersion);
    }

    /** The migrator to --schema-version (default: the library's default store version). */
    public Migrator migrator() {
        return Migrator.create().toVersion(schemaVersion == null ? StateRepository.DEFAULT_SCHEMA_VERSION : schemaVersion);
    }

    /** True when --db is a PostgreSQL URL. */
    public boolean dbIsUrl() {
        return db != null && StoreLocation.isUrl(db);
    }

    /**
     * The --db store: the server in --schema, or the file (the Hermes default when --db is not given).
     * A file ignores --schema, as every command always has. Its text never holds the password.
     */
    public StoreLocation location() {
        return dbIsUrl() ? StoreLocation.parse(Objects.requireNonNull(db), schema) : StoreLocation.file(dbPath());
    }

    /** Times relative to this run's start, in the system time zone. */
    public Times times() {
        return Times.system();
    }

    /** How matches and emphasis are shown on stdout. */
    public Highlighter highlighter() {
        boolean colors = switch (color) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> !json && Terminal.wantsColors();
        };
        return Highlighter.of(colors);
    }

    /** Progress indicators go to stderr only when it is a terminal. */
    public boolean progressWanted() {
        return Terminal.isTerminal(Terminal.STDERR);
    }

    /** Writes one JSON document (with Hermes' keys) and a newline to stdout. */
    public void printJson(Object document) {
        Json.writeLine(out, document);
    }

    /**
     * Opens an existing store for a command that only reads: read-only with {@code --read-only},
     * else read-write like every Hermes open (which adopts or migrates an older file; an up-to-date
     * file takes the migrator's fast path and Liquibase is not started).
     */
    public StateRepository openExisting() {
        if (dbIsUrl()) {
            return openServer(readOnly);
        }
        Path path = requireExisting(dbPath());
        return readOnly ? openReadOnly(path) : storeBuilder().path(path).build();
    }

    /** Opens the --db store read-only whatever {@code --read-only} says: the file (which must exist) or the server. */
    public StateRepository openForReading() {
        return dbIsUrl() ? openServer(true) : openReadOnly(requireExisting(dbPath()));
    }

    /** Opens an existing store for a command that changes it; refuses {@code --read-only}. */
    public StateRepository openForChange(String command) {
        refuseReadOnly(command);
        return dbIsUrl() ? openServer(false) : storeBuilder().path(requireExisting(dbPath())).build();
    }

    /** Opens the --db store, creating (migrating) it when missing, unless {@code --read-only}. */
    public StateRepository openOrCreate() {
        return dbIsUrl() ? openServer(readOnly) : openOrCreate(dbPath());
    }

    /** The store in --schema on the --db server, migrated on opening unless read-only. */
    private StateRepository openServer(boolean readOnlyStore) {
        return storeBuilder().url(db).schema(schema).readOnly(readOnlyStore).build();
    }

    /** Opens the store, creating a new file when there is none (unless {@code --read-only}). */
    public StateRepository openOrCreate(Path path) {
        return readOnly ? openReadOnly(requireExisting(path)) : storeBuilder().path(path).build();
    }

    /** Opens the file read-only; says on stderr, in one line, when it can only be read as a snapshot. */
    public StateRepository openReadOnly(Path path) {
        StateRepository store = storeBuilder().path(path).readOnly(true).build();
        if (store.isImmutableSnapshot()) {
            err.println("hermes-state: note: reading " + path.toAbsolutePath() + " as an immutable snapshot (its folder is"
                    + " read-only and has no " + path.getFileName() + "-shm); changes made to it meanwhile are not seen");
        }
        return store;
    }

    public void refuseReadOnly(String command) {
        if (readOnly) {
            throw new InvalidArgumentException("'" + command + "' changes the database and cannot run with --read-only");
        }
    }

    /** The path, if a file is there; else a clear error saying how to create one. */
    public static Path requireExisting(Path path) {
        if (!Files.exists(path)) {
            throw new StateIOException("No database file at " + path.toAbsolutePath()
                    + " (create one with: hermes-state --db " + path + " migrate)");
        }
        return path;
    }
}
