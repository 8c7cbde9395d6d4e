package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.LineageNode;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Turns what a user typed into a session id, the way Hermes' own commands do: the exact id, else the
 * only id starting with it ({@code resolve_session_id}), else (where a title makes sense) the session
 * a title resolves to ({@code resolve_session_by_title}: the newest of a {@code title #n} lineage).
 * Failing that, a message that says whether nothing matched or several ids did.
 */
final class SessionRefs {
    private static final int AMBIGUITY_EXAMPLES = 3;

    private SessionRefs() {
    }

    /** An id or unique id prefix. */
    static String byId(StateRepository store, String reference) {
        return resolve(store, reference, false);
    }

    /** An id, a unique id prefix, or a title. */
    static String byIdOrTitle(StateRepository store, String reference) {
        return resolve(store, reference, true);
    }

    /** The root of the tree a session belongs to (the session itself when it has no parent). */
    static String rootOf(StateRepository store, String id) {
        return store.getAncestors(id).stream()
                .max(Comparator.comparingInt(LineageNode::depth))
                .map(node -> node.session().id())
                .orElse(id);
    }

    private static String resolve(StateRepository store, String reference, boolean titles) {
        if (reference == null || reference.isBlank()) {
            throw new InvalidArgumentException("A session id is required");
        }
        Optional<String> id = store.resolveSessionId(reference);
        if (id.isPresent()) {
            return id.get();
        }
        if (titles) {
            Optional<String> titled = store.resolveSessionByTitle(reference);
            if (titled.isPresent()) {
                return titled.get();
            }
        }
        // jOOQ's startsWith escapes LIKE wildcards, so '_' and '%' in the prefix match literally.
        List<String> candidates = store.dsl()
                .select(SESSIONS.ID)
                .from(SESSIONS)
                .where(SESSIONS.ID.startsWith(reference))
                .orderBy(SESSIONS.ID)
                .limit(AMBIGUITY_EXAMPLES + 1)
                .fetch(SESSIONS.ID);
        if (candidates.size() > 1) {
            String examples = String.join(", ", candidates.subList(0, Math.min(AMBIGUITY_EXAMPLES, candidates.size())));
            throw new InvalidArgumentException("Session id prefix '" + reference + "' is ambiguous: it matches "
                    + examples + (candidates.size() > AMBIGUITY_EXAMPLES ? " and more" : "") + "; type more of the id");
        }
        throw new InvalidArgumentException("No session with the id" + (titles ? ", id prefix or title '" : " or id prefix '")
                + reference + "'");
    }
}
