package dev.hermes.state.core.retention;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.messages.Messages;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.sessions.Chunks;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.impl.DSL;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The operator's bulk operations on a selection: prune and archive work on whole compression lineages
 * (the sessions linked through parents that ended by compression, as the agent's archive links them),
 * all or nothing: a lineage goes only when every one of its sessions is selected (and, to be pruned,
 * ended). One continuation still live, or still recent, keeps the whole conversation, so a prune never
 * leaves a continuation whose past was cut away, nor a root without its continuations.
 */
public final class SelectedSessions {
    private static final String COMPRESSION = "compression";

    private final Messages messages;

    public SelectedSessions(Messages messages) {
        this.messages = messages;
    }

    /** The sessions {@code selected} admits, newest start first. */
    public List<Session> select(Transaction transaction, Condition selected) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(selected)
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch(Rows::session);
    }

    /** The lineages every session of which {@code selected} admits and has ended, newest start first. */
    public List<Session> prunable(Transaction transaction, Condition selected) {
        return wholeLineages(transaction, selected.and(SESSIONS.ENDED_AT.isNotNull()), false);
    }

    /**
     * The lineages every session of which {@code selected} admits (live ones too: the agent archives
     * any session) and of which one at least is not archived yet, newest start first.
     */
    public List<Session> archivable(Transaction transaction, Condition selected) {
        return wholeLineages(transaction, selected, true);
    }

    private List<Session> wholeLineages(Transaction transaction, Condition selected, boolean someUnarchived) {
        List<Session> matching = select(transaction, selected);
        Set<String> matched = new HashSet<>();
        for (Session session : matching) {
            matched.add(session.id());
        }
        Map<String, Set<String>> lineages = lineages(transaction.dsl());
        Set<String> kept = new HashSet<>();
        Set<String> taken = new HashSet<>();
        for (Session session : matching) {
            Set<String> lineage = lineages.getOrDefault(session.id(), Set.of(session.id()));
            if (taken.contains(session.id()) || kept.contains(session.id())) {
                continue;
            }
            (matched.containsAll(lineage) ? taken : kept).addAll(lineage);
        }
        List<Session> chosen = matching.stream().filter(session -> taken.contains(session.id())).toList();
        if (!someUnarchived) {
            return chosen;
        }
        Set<String> withUnarchived = new HashSet<>();
        for (Session session : chosen) {
            if (!session.archived()) {
                withUnarchived.addAll(lineages.getOrDefault(session.id(), Set.of(session.id())));
            }
        }
        return chosen.stream().filter(session -> withUnarchived.contains(session.id())).toList();
    }

    /**
     * Every session in a compression lineage, mapped to its whole lineage (the connected sessions); a
     * session in none is absent. One read of the compression links, joined in memory: lineages are few
     * and short beside the sessions, and walking each candidate's would cost a query per level.
     */
    private static Map<String, Set<String>> lineages(DSLContext dsl) {
        var parent = SESSIONS.as("compressed_parent");
        var child = SESSIONS.as("continuation");
        Map<String, String> root = new HashMap<>();
        for (Record2<String, String> link : dsl.select(child.ID, parent.ID).from(child)
                .join(parent).on(parent.ID.eq(child.PARENT_SESSION_ID))
                .where(parent.END_REASON.eq(DSL.inline(COMPRESSION)))
                .fetch()) {
            union(root, link.value1(), link.value2());
        }
        Map<String, Set<String>> members = new HashMap<>();
        for (String id : List.copyOf(root.keySet())) {
            members.computeIfAbsent(find(root, id), r -> new LinkedHashSet<>()).add(id);
        }
        Map<String, Set<String>> lineageOf = new HashMap<>();
        for (Set<String> lineage : members.values()) {
            for (String id : lineage) {
                lineageOf.put(id, lineage);
            }
        }
        return lineageOf;
    }

    private static void union(Map<String, String> root, String a, String b) {
        String rootA = find(root, a);
        String rootB = find(root, b);
        if (!rootA.equals(rootB)) {
            root.put(rootA, rootB);
        }
    }

    private static String find(Map<String, String> root, String id) {
        String current = id;
        String parent = root.computeIfAbsent(current, self -> self);
        while (!parent.equals(current)) {
            current = parent;
            parent = root.getOrDefault(current, current);
        }
        return current;
    }

    /** The message rows of {@code ids} (live or not). */
    public long messageRows(Transaction transaction, Collection<String> ids) {
        long rows = 0;
        for (List<String> chunk : Chunks.of(ids)) {
            rows += transaction.dsl().fetchCount(MESSAGES, MESSAGES.SESSION_ID.in(chunk));
        }
        return rows;
    }

    /** Sets the archive flag of {@code ids}. */
    public void archive(Transaction transaction, Collection<String> ids) {
        for (List<String> chunk : Chunks.of(ids)) {
            transaction.dsl().update(SESSIONS).set(SESSIONS.ARCHIVED, true).where(SESSIONS.ID.in(chunk)).execute();
        }
    }

    /** Hands each selected session, newest start first, with its messages to {@code sink}; returns how many. */
    public long export(Transaction transaction, Condition selected, Consumer<SessionExport> sink) throws SQLException {
        long exported = 0;
        try (Cursor<Record> rows = transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(selected)
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetchLazy()) {
            for (Record row : rows) {
                Session session = Rows.session(row);
                sink.accept(new SessionExport(session, messages.of(transaction, session.id())));
                exported++;
            }
        }
        return exported;
    }

    /** The ids of {@code sessions}, in order. */
    public static List<String> ids(List<Session> sessions) {
        List<String> ids = new ArrayList<>(sessions.size());
        for (Session session : sessions) {
            ids.add(session.id());
        }
        return ids;
    }
}
