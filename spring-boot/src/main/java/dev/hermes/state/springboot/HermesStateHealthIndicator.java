package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.SchemaStatus;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The store's health: up when its file reads as a Hermes store of version 6 or newer and answers a
 * query; details: the file, its schema version, journal mode, and the sizes of the file and its
 * {@code -wal}.
 */
public class HermesStateHealthIndicator extends AbstractHealthIndicator {
    private final StateRepository store;

    public HermesStateHealthIndicator(StateRepository store) {
        super("Hermes store health check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Optional<Path> file = store.path();
        builder.withDetail("readOnly", store.isReadOnly());
        if (file.isPresent()) {
            // the version the store keeps its file at: 6 when pinned there, else 17
            int target = store.schemaRules() == SchemaRules.V6 ? Migrator.KEPT_VERSION : StateRepository.DEFAULT_SCHEMA_VERSION;
            SchemaStatus status = Migrator.create().toVersion(target).status(file.get());
            builder.withDetail("file", file.get().toString())
                    .withDetail("schemaVersion", status.schemaVersion())
                    .withDetail("journalMode", status.journalMode())
                    .withDetail("fileBytes", status.fileBytes())
                    .withDetail("walBytes", status.walBytes());
            if (status.schemaVersion() < status.latestVersion()) {
                builder.down().withDetail("reason", "the file is at schema version " + status.schemaVersion()
                        + ", not " + status.latestVersion());
                return;
            }
        } else {
            builder.withDetail("store", store.describe());
        }
        builder.withDetail("sessions", store.sessionCount(null)).up();
    }
}
