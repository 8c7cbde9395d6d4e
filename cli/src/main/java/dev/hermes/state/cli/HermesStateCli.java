package dev.hermes.state.cli;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.cli.command.CopyCommand;
import dev.hermes.state.cli.command.DemoCommand;
import dev.hermes.state.cli.command.MigrateCommand;
import dev.hermes.state.cli.command.RpcCommand;
import dev.hermes.state.cli.command.SearchCommand;
import dev.hermes.state.cli.command.SessionsCommand;
import dev.hermes.state.cli.command.StatsCommand;
import dev.hermes.state.cli.command.StatusCommand;
import dev.hermes.state.cli.json.Json;
import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Terminal;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.postgresql.PostgresLocation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The {@code hermes-state} command: the global options, the subcommands, and the rules every
 * subcommand shares: where the database is, how it is opened, where output goes and how failures
 * end the process. Exit codes: 0 success, 1 a user error (one line on stderr, never a stack trace),
 * 2 bad usage (picocli's message and the usage help).
 */
@Command(name = "hermes-state",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = {
                "Reads and writes the Hermes Agent session store (state.db): the SQLite file in which the Python agent "
                        + "keeps every session, its messages and a full-text index. Safe to use while the agent runs.",
                "",
                "Start with:  hermes-state demo"},
        footer = {"", "Benchmark (run by the ./hermes-state script of a checkout, from its own jar):",
                "  hermes-state bench [--quick]   W1-W9 of BENCHMARK.md (more: bench --help)",
                "", "Exit codes: 0 success, 1 error (message on stderr), 2 bad usage."})
public final class HermesStateCli implements Callable<Integer> {
    public static final int OK = 0;
    public static final int USER_ERROR = 1;
    public static final int USAGE = 2;

    /**
     * The subcommands, in the order the help lists them. Picocli reflects over a command's annotations
     * when it is registered, which costs start-up time; {@link #run} registers only the one being run.
     */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    /** The global options that take a value (to find the subcommand's name among the arguments). */
    private static final Set<String> OPTIONS_WITH_VALUE = Set.of("--db", "--schema", "--color");

    /** How much of an error the command prints: a stack trace only when asked for. */
    private static final String DEBUG_ENV = "HERMES_STATE_DEBUG";

    @Option(names = "--db", paramLabel = "PATH|URL", scope = ScopeType.INHERIT,
            description = "The database file (default: $HERMES_HOME/state.db, else ~/.hermes/state.db), or a PostgreSQL "
                    + "server: postgresql://user:password@host:port/dbname (or jdbc:postgresql://...).")
    private String db;

    @Option(names = "--schema", paramLabel = "NAME", scope = ScopeType.INHERIT,
            description = "With a PostgreSQL --db: the schema the store lives in (default: hermes).")
    private String schema;

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

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    /** When colours are used. */
    public enum ColorMode { AUTO, ALWAYS, NEVER }

    public HermesStateCli(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int exitCode = run(args, System.in, out, err);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }

    /** Runs one command line with the given streams and returns the exit code (the process's, in tests). */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        // jOOQ prints a banner and tips through its logger unless told not to.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
        HermesStateCli cli = new HermesStateCli(in, out, err);
        CommandLine commandLine = new CommandLine(cli);
        String wanted = commandName(args);
        COMMANDS.forEach((name, command) -> {
            if (wanted == null || wanted.equals(name)) {
                commandLine.addSubcommand(name, withMethodSubcommands(command.get(), args));
            }
        });
        commandLine
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
                .setExecutionExceptionHandler((failure, command, parseResult) -> cli.report(failure));
        int exitCode = commandLine.execute(args);
        out.flush();
        return exitCode;
    }

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("migrate", MigrateCommand::new);
        commands.put("status", StatusCommand::new);
        commands.put("sessions", SessionsCommand::new);
        commands.put("search", SearchCommand::new);
        commands.put("stats", StatsCommand::new);
        commands.put("copy", CopyCommand::new);
        commands.put("rpc", RpcCommand::new);
        commands.put("demo", DemoCommand::new);
        commands.put("help", CommandLine.HelpCommand::new);
        return commands;
    }

    /**
     * The subcommand the arguments name (the first word that is neither an option nor an option's
     * value), or null when there is none or it is not a known command: then every command is
     * registered, for the usage help and picocli's suggestions.
     */
    static String commandName(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (OPTIONS_WITH_VALUE.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-")) {
                return COMMANDS.containsKey(arg) && !"help".equals(arg) ? arg : null;
            }
        }
        return null;
    }

    /**
     * {@code command} as picocli's command line. A command whose subcommands are its {@code @Command}
     * methods (sessions) says {@code addMethodSubcommands = false}; they are added here: only the one
     * the arguments name when they name one (picocli reflects over every method's annotations and
     * parameters otherwise, a good part of a cold start), else all of them in picocli's own order,
     * for the usage help and picocli's suggestions.
     */
    static CommandLine withMethodSubcommands(Object command, String[] args) {
        CommandLine commandLine = new CommandLine(command);
        Command declared = command.getClass().getAnnotation(Command.class);
        if (declared == null || declared.addMethodSubcommands()) {
            return commandLine; // picocli has added them
        }
        List<Method> methods = CommandLine.getCommandMethods(command.getClass(), null);
        String wanted = methodName(args, commandLine.getCommandName());
        List<Method> named = methods.stream()
                .filter(method -> isNamed(method.getAnnotation(Command.class), wanted))
                .toList();
        for (Method method : named.isEmpty() ? methods : named) {
            commandLine.addSubcommand(new CommandLine(method));
        }
        return commandLine;
    }

    /** The first word after the command's own name that is neither an option nor an option's value; else null. */
    private static String methodName(String[] args, String command) {
        boolean afterCommand = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (OPTIONS_WITH_VALUE.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-")) {
                if (afterCommand) {
                    return arg;
                }
                afterCommand = arg.equals(command);
            }
        }
        return null;
    }

    private static boolean isNamed(Command command, String name) {
        return name != null && (name.equals(command.name()) || Arrays.asList(command.aliases()).contains(name));
    }

    /** {@code hermes-state} alone: the usage help, as a usage error. */
    @Override
    public Integer call() {
        CommandLine.usage(this, err);
        return USAGE;
    }

    /** Turns a failure into one line on stderr and the exit code. */
    private int report(Exception failure) {
        out.flush();
        String message;
        if (failure instanceof SchemaTooNewException tooNew) {
            message = tooNew.getMessage().replaceFirst("\\.?$", "") + " (--read-only).";
        } else if (failure instanceof HermesStateException typed) {
            message = typed.getMessage();
        } else if (failure instanceof UncheckedIOException io) {
            message = "I/O error: " + io.getCause().getMessage();
        } else {
            message = "internal error (" + failure.getClass().getSimpleName() + "): " + failure.getMessage()
                    + " (set " + DEBUG_ENV + "=1 for details)";
        }
        err.println("hermes-state: " + oneLine(message));
        String debug = System.getenv(DEBUG_ENV);
        if (debug != null && !debug.isBlank() && !"0".equals(debug)) {
            failure.printStackTrace(err);
        }
        return USER_ERROR;
    }

    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    // ------------------------------------------------------------------ what subcommands share

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
    public Path explicitDbPath() {
        return db == null || dbIsUrl() ? null : Path.of(db);
    }

    /** True when --db is a PostgreSQL URL. */
    public boolean dbIsUrl() {
        return db != null && StateRepository.isUrl(db);
    }

    /** The --db PostgreSQL server and --schema, for the migrator; the password stays out of its text. */
    public PostgresLocation dbLocation() {
        PostgresLocation location = PostgresLocation.parse(db);
        return schema == null ? location : location.withSchema(schema);
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
        return readOnly ? openReadOnly(path) : StateRepository.open(path);
    }

    /** Opens an existing store for a command that changes it; refuses {@code --read-only}. */
    public StateRepository openForChange(String command) {
        refuseReadOnly(command);
        return dbIsUrl() ? openServer(false) : StateRepository.open(requireExisting(dbPath()));
    }

    /** Opens the --db store, creating (migrating) it when missing, unless {@code --read-only}. */
    public StateRepository openOrCreate() {
        return dbIsUrl() ? openServer(readOnly) : openOrCreate(dbPath());
    }

    /** The store in --schema on the --db server, migrated on opening unless read-only. */
    private StateRepository openServer(boolean readOnlyStore) {
        return StateRepository.builder().url(db).schema(schema).readOnly(readOnlyStore).build();
    }

    /** Opens the store, creating a new file when there is none (unless {@code --read-only}). */
    public StateRepository openOrCreate(Path path) {
        return readOnly ? openReadOnly(requireExisting(path)) : StateRepository.open(path);
    }

    /** Opens the file read-only; says on stderr, in one line, when it can only be read as a snapshot. */
    public StateRepository openReadOnly(Path path) {
        StateRepository store = StateRepository.openReadOnly(path);
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
