package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.jspecify.annotations.Nullable;

/** The Hermes store of a Spring Boot application: {@code hermes.state.*}. */
@ConfigurationProperties("hermes.state")
public class HermesStateProperties {
    /**
     * The store: a file path ("~/" is the user's home; "jdbc:sqlite:" may precede it), or a PostgreSQL
     * URL (postgresql://user:password@host:port/db or jdbc:postgresql://...). Default: $HERMES_HOME/state.db,
     * else ~/.hermes/state.db, the file the Python agent uses.
     */
    private @Nullable String db;

    /** The schema of a PostgreSQL store (default "hermes"); several stores can share a database. */
    private @Nullable String schema;

    /** Open the store read-only: nothing is ever written (files newer than version 17 are readable). */
    private boolean readOnly = false;

    /**
     * Create, migrate or adopt the file (or PostgreSQL schema) on start. When false the store must
     * already be at the schema version, and a missing or older one stops the application.
     */
    private boolean migrate = true;

    /**
     * The Hermes schema version the store is kept at: 17 (the default, today's agent) or 6, for a file
     * shared with an agent of April 2026 (a file already newer than 6 then stops the application).
     */
    private int schemaVersion = StateRepository.DEFAULT_SCHEMA_VERSION;

    private final SpringAi springAi = new SpringAi();

    private final Langchain4j langchain4j = new Langchain4j();

    public @Nullable String getSchema() {
        return schema;
    }

    public void setSchema(@Nullable String schema) {
        this.schema = schema;
    }

    public @Nullable String getDb() {
        return db;
    }

    public void setDb(@Nullable String db) {
        this.db = db;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    public int getSchemaVersion() {
        return schemaVersion;
    }

    public void setSchemaVersion(int schemaVersion) {
        this.schemaVersion = schemaVersion;
    }

    public boolean isMigrate() {
        return migrate;
    }

    public void setMigrate(boolean migrate) {
        this.migrate = migrate;
    }

    public SpringAi getSpringAi() {
        return springAi;
    }

    public Langchain4j getLangchain4j() {
        return langchain4j;
    }

    /** Spring AI's chat memory on the store. */
    public static class SpringAi {
        /** The Hermes source of the sessions Spring AI's chat memory creates and lists. */
        private String source = "spring-ai";

        public String getSource() {
            return source;
        }

        public void setSource(String source) {
            this.source = source;
        }
    }

    /** LangChain4j's chat memory on the store. */
    public static class Langchain4j {
        /** The Hermes source of the sessions LangChain4j's chat memory creates and lists. */
        private String source = "langchain4j";

        public String getSource() {
            return source;
        }

        public void setSource(String source) {
            this.source = source;
        }
    }
}
