package dev.hermes.state.bench.process;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command lines for the benchmark's child JVMs: the same {@code java} binary, class path and JVM
 * options as the running process (so a child started from the packaged jar runs the packaged code the
 * way a user gets it), minus debugger and agent options. The children that stand for a user's process
 * (W6, W8, W9) also get the JVM options the {@code hermes-state} launcher gives a user's command,
 * which the launcher publishes in {@value #COMMAND_OPTIONS_PROPERTY} (the launcher stays their one
 * source); without it they run with this process's options.
 */
public final class JavaProcess {
    private JavaProcess() {
    }

    /** Where {@code ./hermes-state bench} puts the command's JVM options, separated by spaces. */
    public static final String COMMAND_OPTIONS_PROPERTY = "hermes.state.command.jvm.options";

    public static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public static String classPath() {
        return System.getProperty("java.class.path");
    }

    /** The running JVM's own options, without agents, debuggers and (when replaced) heap limits. */
    public static List<String> inheritedOptions(boolean dropHeapLimit) {
        List<String> options = new ArrayList<>();
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            boolean agent = option.startsWith("-agentlib") || option.startsWith("-javaagent")
                    || option.startsWith("-agentpath") || option.startsWith("-Xrunjdwp") || option.equals("-Xdebug");
            boolean heap = option.startsWith("-Xmx") || option.startsWith("-XX:MaxHeapSize");
            if (!agent && !(dropHeapLimit && heap)) {
                options.add(option);
            }
        }
        return options;
    }

    /**
     * The options of a child that stands for a user's process: this process's own options, then the
     * launcher's command options (a collector chosen here gives way to the command's).
     */
    public static List<String> userOptions(boolean dropHeapLimit) {
        List<String> command = commandOptions();
        boolean commandChoosesGc = command.stream().anyMatch(JavaProcess::choosesGc);
        List<String> options = new ArrayList<>();
        for (String option : inheritedOptions(dropHeapLimit)) {
            if (!(commandChoosesGc && choosesGc(option)) && !option.startsWith("-D" + COMMAND_OPTIONS_PROPERTY + "=")) {
                options.add(option);
            }
        }
        options.addAll(command);
        return options;
    }

    /** The launcher's options for a user's command, as it published them; empty when not run by the launcher. */
    public static List<String> commandOptions() {
        String published = System.getProperty(COMMAND_OPTIONS_PROPERTY, "").trim();
        return published.isEmpty() ? List.of() : List.of(published.split("\\s+"));
    }

    private static boolean choosesGc(String option) {
        return option.startsWith("-XX:+Use") && option.endsWith("GC");
    }

    /** {@code java <options> -cp <class path> <main> <args>}. */
    public static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(jvmOptions);
        command.add("-D" + StoreTarget.SCHEMA_VERSION_PROPERTY + "=" + StoreTarget.schemaVersion());
        command.add("-cp");
        command.add(classPath());
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    /** {@code java <options> -jar <jar> <args>}. */
    public static List<String> jarCommand(List<String> jvmOptions, Path jar, String... args) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(List.of(args));
        return command;
    }
}
