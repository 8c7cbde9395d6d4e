package dev.hermes.state.it.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * What the command's jar ships: the command, not the benchmark. The benchmark (W1-W9, its raw-JDBC
 * baseline) is a jar of its own that the root script runs for {@code hermes-state bench}.
 */
class CommandJarTest {
    @Test
    void theCommandJarCarriesNoBenchmarkCode() throws IOException {
        try (JarFile jar = new JarFile(Cli.jar().toFile())) {
            assertNotNull(jar.getEntry("dev/hermes/state/cli/HermesStateCli.class"), "the command is in " + jar.getName());
            List<String> benchmark = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("dev/hermes/state/bench/")
                            || name.startsWith("META-INF/maven/dev.hermes/hermes-state-benchmarks/"))
                    .toList();
            assertEquals(List.of(), benchmark, "benchmark entries in " + jar.getName());
        }
    }
}
