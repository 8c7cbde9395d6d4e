package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The migration-only command, {@code java -jar migrations/target/hermes-state-migrate.jar}, as a user or CI runs it. */
final class MigrateJar {
    /** The prefix of its one-line errors ({@link ProcessResult#userError}). */
    static final String PROGRAM = "hermes-state-migrate";

    private MigrateJar() {
    }

    /** The jar (system property hermes.migrate.jar), built by the migrations module's package phase. */
    static Path path() {
        String property = System.getProperty("hermes.migrate.jar");
        if (property == null) {
            throw new IllegalStateException("system property hermes.migrate.jar is not set (run through Maven)");
        }
        Path jar = Path.of(property).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with the package phase"
                    + " (mvn -B -ntp -pl integration-tests -am verify)");
        }
        return jar;
    }

    /** {@code java [jvmOptions] -jar hermes-state-migrate.jar args}. */
    static Command command(List<String> jvmOptions, String... args) {
        return Command.javaJar(jvmOptions, path(), args);
    }

    static ProcessResult run(String... args) {
        return command(List.of(), args).run();
    }
}
