package dev.hermes.state.cli;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.cli.command.CommandContext;
import dev.hermes.state.cli.command.BackupCommand;
import dev.hermes.state.cli.command.CopyCommand;
import dev.hermes.state.cli.command.DemoCommand;
import dev.hermes.state.cli.command.MaintenanceCommands;
import dev.hermes.state.cli.command.MigrateCommand;
import dev.hermes.state.cli.command.RpcCommand;
import dev.hermes.state.cli.command.SearchCommand;
import dev.hermes.state.cli.command.ServeCommand;
import dev.hermes.state.cli.command.SessionsCommand;
import dev.hermes.state.cli.command.StatsCommand;
import dev.hermes.state.cli.command.StatusCommand;
import dev.hermes.state.cli.launch.StartupWarmup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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
public final class HermesStateCli extends CommandContext implements Callable<Integer> {
    /**
     * The subcommands, in the order the help lists them. Picocli reflects over a command's annotations
     * when it is registered, which costs start-up time; {@link #run} registers only the one being run.
     */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    /** The global options that take a value (to find the subcommand's name among the arguments). */
    private static final Set<String> OPTIONS_WITH_VALUE = Set.of("--db", "--schema", "--color");

    /** How much of an error the command prints: a stack trace only when asked for. */
    private static final String DEBUG_ENV = "HERMES_STATE_DEBUG";

    public HermesStateCli(InputStream in, PrintStream out, PrintStream err) {
        super(in, out, err);
    }

    public static void main(String[] args) {
        if (commandName(args) != null) {
            StartupWarmup.start(); // every named command opens a store
        }
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
        commands.put("serve", ServeCommand::new);
        commands.put("backup", BackupCommand::new);
        commands.put("rpc", RpcCommand::new);
        commands.put("doctor", MaintenanceCommands.Doctor::new);
        commands.put("repair", MaintenanceCommands.Repair::new);
        commands.put("recover", MaintenanceCommands.Recover::new);
        commands.put("demo", DemoCommand::new);
        commands.put("help", CommandLine.HelpCommand::new);
        return commands;
    }

    /**
     * The subcommand the arguments name (the first word that is neither an option nor an option's
     * value), or null when there is none or it is not a known command: then every command is
     * registered, for the usage help and picocli's suggestions.
     */
    static @Nullable String commandName(String[] args) {
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
    private static @Nullable String methodName(String[] args, String command) {
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

    private static boolean isNamed(Command command, @Nullable String name) {
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
            message = String.valueOf(tooNew.getMessage()).replaceFirst("\\.?$", "") + " (--read-only).";
        } else if (failure instanceof HermesStateException typed) {
            message = typed.getMessage();
        } else if (failure instanceof UncheckedIOException io) {
            message = "I/O error: " + (io.getCause() != null ? io.getCause().getMessage() : io.getMessage());
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

    private static String oneLine(@Nullable String message) {
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
