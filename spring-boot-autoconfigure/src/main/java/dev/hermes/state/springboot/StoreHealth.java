package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.SchemaStatus;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The store's health, apart from any Spring Boot type: Boot 4 and Boot 3 keep their health classes
 * in different packages, so each line has a thin indicator over this one check. Up when the file
 * reads as a Hermes store at the version the store keeps it at and answers a query; details: the
 * file, its schema version, journal mode, and the sizes of the file and its {@code -wal}.
 */
record StoreHealth(boolean up, Map<String, Object> details) {

    /** The status code both Boot lines name the same ({@code Status.UP} or {@code Status.DOWN}). */
    String status() {
        return up ? "UP" : "DOWN";
    }

    static StoreHealth of(StateRepository store) {
        Map<String, Object> details = new LinkedHashMap<>();
        Optional<Path> file = store.path();
        details.put("readOnly", store.isReadOnly());
        if (file.isPresent()) {
            // the version the store keeps its file at: 6 when pinned there, else 17
            int target = store.schemaRules() == SchemaRules.V6 ? Migrator.KEPT_VERSION : StateRepository.DEFAULT_SCHEMA_VERSION;
            SchemaStatus status = Migrator.create().toVersion(target).status(file.get());
            details.put("file", file.get().toString());
            details.put("schemaVersion", status.schemaVersion());
            details.put("journalMode", status.journalMode());
            details.put("fileBytes", status.fileBytes());
            details.put("walBytes", status.walBytes());
            if (status.schemaVersion() < status.latestVersion()) {
                details.put("reason", "the file is at schema version " + status.schemaVersion() + ", not "
                        + status.latestVersion());
                return new StoreHealth(false, details);
            }
        } else {
            details.put("store", store.describe());
        }
        details.put("sessions", store.sessionCount());
        return new StoreHealth(true, details);
    }
}
