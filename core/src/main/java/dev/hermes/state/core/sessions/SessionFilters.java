package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.StoreSchema;
import org.jooq.Condition;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;
import dev.hermes.state.codegen.EpochSecondsConverter;
import dev.hermes.state.core.rows.EpochSeconds;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The session filters the rich listing and the count share (list_sessions_rich and session_count apply
 * them alike, so that a count matches the rows a listing pages through). A column the store lacks reads
 * as its default: no working directory, not archived.
 */
final class SessionFilters {
    private static final EpochSecondsConverter SECONDS = new EpochSecondsConverter();
    private SessionFilters() {
    }

    /**
     * {@code source} equal (null or empty: any), none of {@code excludeSources}, the working directory
     * {@code cwdPrefix} or below it (null or empty: any), at least {@code minMessageCount} messages (0 or
     * less: any), and archived or not: only archived ones with {@code archivedOnly}, else archived ones
     * too only with {@code includeArchived}; of {@code model} (null or empty: any), started in
     * [{@code startedFrom}, {@code startedBefore}) (null: unbounded).
     */
    static Condition common(Backend backend, StoreSchema schema, @Nullable String source, List<String> excludeSources,
                            @Nullable String cwdPrefix, int minMessageCount, boolean includeArchived,
                            boolean archivedOnly, @Nullable String model, @Nullable Instant startedFrom,
                            @Nullable Instant startedBefore) {
        Condition filter = DSL.noCondition();
        if (model != null && !model.isEmpty()) {
            filter = filter.and(SESSIONS.MODEL.eq(model));
        }
        if (startedFrom != null) {
            filter = filter.and(EpochSeconds.column(SESSIONS.STARTED_AT).ge(DSL.val(SECONDS.to(startedFrom))));
        }
        if (startedBefore != null) {
            filter = filter.and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(DSL.val(SECONDS.to(startedBefore))));
        }
        if (source != null && !source.isEmpty()) {
            filter = filter.and(SESSIONS.SOURCE.eq(source));
        }
        if (!excludeSources.isEmpty()) {
            filter = filter.and(SESSIONS.SOURCE.notIn(excludeSources));
        }
        if (cwdPrefix != null && !cwdPrefix.isEmpty()) {
            filter = filter.and(cwdWithin(backend, schema, cwdPrefix));
        }
        if (minMessageCount > 0) {
            filter = filter.and(SESSIONS.MESSAGE_COUNT.ge((long) minMessageCount));
        }
        if (archivedOnly) {
            filter = filter.and(schema.has(SESSIONS.ARCHIVED) ? DSL.condition("{0} = 1", SESSIONS.ARCHIVED)
                    : DSL.falseCondition());
        } else if (!includeArchived && schema.has(SESSIONS.ARCHIVED)) {
            filter = filter.and(DSL.condition("{0} = 0", SESSIONS.ARCHIVED));
        }
        return filter;
    }

    /**
     * Hermes' working-directory test: the folder itself (trailing slashes and backslashes ignored, unless
     * that leaves nothing) or a path below it with either separator. As in Hermes the folder's own
     * {@code %} and {@code _} are LIKE wildcards, and ASCII letters below it match either case.
     */
    static Condition cwdWithin(Backend backend, StoreSchema schema, String cwdPrefix) {
        if (!schema.has(SESSIONS.CWD)) {
            return DSL.falseCondition();
        }
        String folder = stripTrailingSeparators(cwdPrefix);
        return SESSIONS.CWD.eq(folder)
                .or(backend.like(SESSIONS.CWD, DSL.val(folder + "/%"), null))
                .or(backend.like(SESSIONS.CWD, DSL.val(folder + "\\%"), null));
    }

    /** Python's {@code text.rstrip("/\\") or text}. */
    static String stripTrailingSeparators(String text) {
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '/' || text.charAt(end - 1) == '\\')) {
            end--;
        }
        return end == 0 ? text : text.substring(0, end);
    }
}
