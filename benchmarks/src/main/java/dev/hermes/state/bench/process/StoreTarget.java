package dev.hermes.state.bench.process;

import dev.hermes.state.core.StateRepository;


/**
 * What {@code --db} names for the runs that take any store: a SQLite file, or a PostgreSQL URL
 * ({@code postgresql://...}, {@code jdbc:postgresql://...}).
 * The one place the benchmark's processes open such a target.
 */
public final class StoreTarget {
    private StoreTarget() {
    }

    public static boolean isUrl(String target) {
        return StateRepository.isUrl(target);
    }

    /** Opens the store read-write, created or migrated as a file or a server schema is on opening. */
    public static StateRepository open(String target) {
        return StateRepository.builder().location(target).build();
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
