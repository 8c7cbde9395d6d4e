package dev.hermes.state.bench.process;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command lines for the benchmark's child JVMs: the same {@code java} binary, class path and JVM
 * options as the running process (so a child started from the packaged jar runs the packaged code the
 * way a user gets it), minus debugger and agent options.
 */
public final class JavaProcess {
    private JavaProcess() {
    }

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

    /** {@code java <options> -cp <class path> <main> <args>}. */
    public static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(jvmOptions);
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
