package dev.hermes.state.bench.process;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.StoreLocation;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;


/**
 * What {@code --db} names for the runs that take any store: a SQLite file, or a PostgreSQL URL
 * ({@code postgresql://...}, {@code jdbc:postgresql://...}). A URL may name the store's schema with
 * the benchmark's own parameter {@code hermes_schema=NAME} (default: the store's, {@code hermes}),
 * taken off before the URL reaches the store: that is how a child process is told its schema.
 * The one place the benchmark's processes open such a target.
 */
public final class StoreTarget {
    private static final Pattern SCHEMA_PARAMETER = Pattern.compile("([?&])hermes_schema=([^&]*)(&?)");

    private StoreTarget() {
    }

    public static boolean isUrl(String target) {
        return StoreLocation.isUrl(target);
    }

    /** A target's store text (a URL without {@code hermes_schema}) and the schema that parameter named, or null. */
    record Parts(String location, @Nullable String schema) {
    }

    /** Takes {@code hermes_schema} off a URL target; a file path is left as it is. */
    static Parts parts(String target) {
        Matcher schema = SCHEMA_PARAMETER.matcher(target);
        if (isUrl(target) && schema.find()) {
            String url = target.substring(0, schema.start()) + (schema.group(3).isEmpty() ? "" : schema.group(1))
                    + target.substring(schema.end());
            return new Parts(url, schema.group(2));
        }
        return new Parts(target, null);
    }

    /**
     * The system property that carries the run's schema version (6 or 17) into the benchmark's child
     * processes, which open the run's stores by their target alone.
     */
    public static final String SCHEMA_VERSION_PROPERTY = "hermes.bench.schema-version";

    /** The run's schema version: {@link #SCHEMA_VERSION_PROPERTY}, else the library's default. */
    public static int schemaVersion() {
        return Integer.getInteger(SCHEMA_VERSION_PROPERTY, StateRepository.DEFAULT_SCHEMA_VERSION);
    }

    /** Opens the store read-write at the run's schema version, created or migrated as a file or a server schema is on opening. */
    public static StateRepository open(String target) {
        Parts parts = parts(target);
        return StateRepository.builder().location(parts.location()).schema(parts.schema()).schemaVersion(schemaVersion())
                .build();
    }

    /** A PostgreSQL URL that names the store's schema for {@link #open}. */
    public static String withSchema(String url, String schema) {
        return url + (url.indexOf('?') < 0 ? '?' : '&') + "hermes_schema=" + schema;
    }

    /** The engine's name, for the report. */
    public static String engine(String target) {
        return isUrl(target) ? "postgresql" : "sqlite";
    }

    /** The target as it may be printed: a URL without its password. */
    public static String describe(String target) {
        return target.replaceFirst("(?i)^((?:jdbc:)?postgres(?:ql)?://[^:/@]*):[^@]*@", "$1:***@")
                .replaceFirst("(?i)([?&]password=)[^&]*", "$1***");
    }
}
