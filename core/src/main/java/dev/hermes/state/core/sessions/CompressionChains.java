package dev.hermes.state.core.sessions;

import org.jooq.DSLContext;
import org.jooq.impl.DSL;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * A session's compression lineage as the agent's archive and title rules see it: a parent-child link
 * counts when the parent ended with {@code end_reason = 'compression'}, whatever the child is (a
 * continuation, but also a delegate or branch child of a compressed session). Unlike the listing's
 * and the tip's walks ({@link dev.hermes.state.core.sessions.Lineage}), nothing else is checked. Every
 * walk visits a session once, so a cycle in a hand-edited file ends.
 */
final class CompressionChains {
    private static final String COMPRESSION = "compression";

    private CompressionChains() {
    }

    /**
     * {@code sessionId} (whether or not it exists) and every session above it reached through
     * compression-ended parents, nearest first.
     */
    static Set<String> ancestors(DSLContext dsl, String sessionId) {
        Set<String> found = new LinkedHashSet<>();
        found.add(sessionId);
        String current = sessionId;
        while (true) {
            Optional<String> parent = compressedParent(dsl, current);
            if (parent.isEmpty() || !found.add(parent.get())) {
                return found;
            }
            current = parent.get();
        }
    }

    /** {@code sessionId} and every session below it reached through compression-ended parents, level by level. */
    static Set<String> descendants(DSLContext dsl, String sessionId) {
        Set<String> found = new LinkedHashSet<>();
        found.add(sessionId);
        List<String> frontier = List.of(sessionId);
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (List<String> chunk : Chunks.of(frontier)) {
                var parent = SESSIONS.as("parent");
                var child = SESSIONS.as("child");
                for (String id : dsl.select(child.ID).from(child)
                        .join(parent).on(parent.ID.eq(child.PARENT_SESSION_ID))
                        .where(parent.ID.in(chunk))
                        .and(parent.END_REASON.eq(DSL.inline(COMPRESSION)))
                        .fetch(child.ID)) {
                    if (found.add(id)) {
                        next.add(id);
                    }
                }
            }
            frontier = next;
        }
        return found;
    }

    /** True when {@code ancestorId} is above {@code descendantId} in its compression lineage (never itself). */
    static boolean isAncestor(DSLContext dsl, String ancestorId, String descendantId) {
        return !ancestorId.equals(descendantId) && ancestors(dsl, descendantId).contains(ancestorId);
    }

    /** The parent of {@code sessionId} when that parent ended by compression. */
    private static Optional<String> compressedParent(DSLContext dsl, String sessionId) {
        var parent = SESSIONS.as("parent");
        var child = SESSIONS.as("child");
        return dsl.select(parent.ID).from(child)
                .join(parent).on(parent.ID.eq(child.PARENT_SESSION_ID))
                .where(child.ID.eq(sessionId))
                .and(parent.END_REASON.eq(DSL.inline(COMPRESSION)))
                .fetchOptional(parent.ID);
    }
}
