package dev.hermes.state.cli;

import dev.hermes.state.migrations.Migrator;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** {@code hermes-state --version}: the build's version (filtered in by Maven) and the schema it speaks. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {
                "hermes-state " + properties.getProperty("version", "unknown"),
                "Hermes session store schema version " + Migrator.LATEST_VERSION};
    }
}
