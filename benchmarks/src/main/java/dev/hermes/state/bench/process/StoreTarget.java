package dev.hermes.state.bench.process;

import dev.hermes.state.core.StateRepository;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code --db} names for the runs that take any store: a SQLite file, or a PostgreSQL URL
 * ({@code postgresql://...}, {@code jdbc:postgresql://...}) once {@link StateRepository} opens one.
 * The one place the benchmark's processes open such a target.
 */
public final class StoreTarget {
    private StoreTarget() {
    }

    public static boolean isUrl(String target) {
        String lower = target.toLowerCase(Locale.ROOT);
        return lower.startsWith("postgresql://") || lower.startsWith("postgres://") || lower.startsWith("jdbc:postgresql:");
    }

    /** Opens the store read-write (a file is created or migrated as {@link StateRepository#open(Path)} does). */
    public static StateRepository open(String target) {
        if (isUrl(target)) {
            throw new IllegalArgumentException("this build's StateRepository opens SQLite files only; a PostgreSQL target"
                    + " needs the PostgreSQL backend");
        }
        return StateRepository.open(Path.of(target));
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
