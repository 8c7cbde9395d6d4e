package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.db.tables.Messages;
import dev.hermes.state.db.tables.Sessions;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Record5;
import org.jooq.Result;
import org.jooq.ResultQuery;
import org.jooq.Table;
import org.jooq.impl.DSL;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Compression chains and parent/child trees, each one recursive CTE whatever the depth. Every
 * recursion stops after {@link Backend#chainLengthBound()} steps, which no real chain reaches:
 * a parent cycle (only possible in a hand-edited file) ends the query instead of looping forever,
 * and the Java side drops the repeated sessions.
 */
public final class Lineage {
    /** The end reason of a session that was compressed into a child that continues it. */
    public static final String COMPRESSION = "compression";

    /** The most hops the v17 tip walk takes (the agent's bound); a longer chain ends there. */
    static final int TIP_WALK_BOUND = 100;
    /** The most sessions the resume walk visits below the tip (the agent's bound). */
    static final int RESUME_WALK_BOUND = 32;

    private final Backend backend;
    private final SessionKinds kinds;
    private final PreparedQuery tipQuery;
    private final PreparedQuery continuationQuery;
    private final PreparedQuery newestChildQuery;
    private final PreparedQuery hasMessagesQuery;

    public Lineage(Backend backend) {
        this.backend = backend;
        this.kinds = new SessionKinds(backend);
        this.tipQuery = PreparedQuery.of(this::tipQuery, "sessionId");
        this.continuationQuery = PreparedQuery.of(this::continuationQuery, "sessionId");
        this.newestChildQuery = PreparedQuery.of(this::newestChildQuery, "sessionId");
        this.hasMessagesQuery = PreparedQuery.of(() -> DSL.selectOne().from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class))).limit(DSL.inline(1)), "sessionId");
    }

    /** What decides which children continue a chain: today's agent's rules, the file's markers. */
    public SessionKinds kinds() {
        return kinds;
    }

    /**
     * get_compression_tip: from {@code sessionId}, while the current session ended with
     * {@code compression}, step to its newest child that started at or after that end (delegates
     * and branches start before it and are skipped); the last session reached. Children started at
     * the same moment: the first created wins, as with Hermes' {@code ORDER BY started_at DESC LIMIT 1}
     * over the parent index. An unknown id is its own tip.
     */
    public String compressionTip(Transaction transaction, String sessionId) throws SQLException {
        if (transaction.schema().v17()) {
            return compressionTipV17(transaction, sessionId);
        }
        Result<Record> tip = tipQuery.fetch(transaction, sessionId);
        return tip.isEmpty() ? sessionId : tip.get(0).get(0, String.class);
    }

    /**
     * get_compression_tip by today's agent's rules: from a session that ended {@code compression}, step
     * to the child that {@linkplain SessionKinds#mayContinue may continue} it (when it started does not
     * matter: a continuation may be written before its parent's end), preferring one that was itself
     * compressed, then one still open, then the one with the newest message (else start), then the
     * latest started, then the greatest id; at most {@value #TIP_WALK_BOUND} hops, and a session seen
     * before ends the walk (a parent cycle).
     */
    private String compressionTipV17(Transaction transaction, String sessionId) throws SQLException {
        String current = sessionId;
        Set<String> seen = new HashSet<>();
        seen.add(current);
        for (int hop = 0; hop < TIP_WALK_BOUND; hop++) {
            Result<Record> next = continuationQuery.fetch(transaction, current);
            if (next.isEmpty()) {
                return current;
            }
            String child = next.get(0).get(0, String.class);
            if (child == null || child.isEmpty() || !seen.add(child)) {
                return current;
            }
            current = child;
        }
        return current;
    }

    /** One hop of {@link #compressionTipV17}: the preferred continuation of a session that ended compression. */
    private ResultQuery<?> continuationQuery(StoreSchema schema) {
        Sessions parent = SESSIONS.as("parent");
        Sessions child = SESSIONS.as("child");
        Messages latest = MESSAGES.as("latest");
        Field<Instant> lastMessage = DSL.select(DSL.max(latest.TIMESTAMP)).from(latest)
                .where(latest.SESSION_ID.eq(child.ID)).asField();
        Field<Integer> preference = DSL.when(child.END_REASON.eq(DSL.inline(COMPRESSION)), DSL.inline(0))
                .when(child.ENDED_AT.isNull(), DSL.inline(1))
                .otherwise(DSL.inline(2));
        return DSL.select(child.ID)
                .from(parent)
                .join(child).on(child.PARENT_SESSION_ID.eq(parent.ID))
                .where(parent.ID.eq(DSL.param("sessionId", String.class)))
                .and(parent.END_REASON.eq(DSL.inline(COMPRESSION)))
                .and(kinds.mayContinue(child, schema))
                .orderBy(preference.asc(), DSL.coalesce(lastMessage, child.STARTED_AT).desc(), child.STARTED_AT.desc(),
                        child.ID.desc())
                .limit(DSL.inline(1));
    }

    /**
     * resolve_resume_session_id: the session a resume of {@code sessionId} should load. First its
     * {@linkplain #compressionTip compression tip}; then, from there, down the latest-started child that
     * {@linkplain SessionKinds#mayContinue may continue} its parent (whatever the parent's end), the last
     * session on that path that has messages; the tip when none has. At most
     * {@value #RESUME_WALK_BOUND} sessions; a session seen before ends the path.
     */
    public String resumeTarget(Transaction transaction, String sessionId) throws SQLException {
        String tip = compressionTip(transaction, sessionId);
        String current = tip;
        Set<String> seen = new HashSet<>();
        seen.add(current);
        String best = null;
        for (int step = 0; step < RESUME_WALK_BOUND; step++) {
            if (!hasMessagesQuery.fetch(transaction, current).isEmpty()) {
                best = current;
            }
            Result<Record> child = newestChildQuery.fetch(transaction, current);
            if (child.isEmpty()) {
                break;
            }
            String childId = child.get(0).get(0, String.class);
            if (childId == null || childId.isEmpty() || !seen.add(childId)) {
                break;
            }
            current = childId;
        }
        return best != null ? best : tip;
    }

    /** The latest-started child of a session that may continue it (ties: the greatest id). */
    private ResultQuery<?> newestChildQuery(StoreSchema schema) {
        Sessions child = SESSIONS.as("child");
        return DSL.select(child.ID)
                .from(child)
                .where(child.PARENT_SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .and(kinds.mayContinue(child, schema))
                .orderBy(child.STARTED_AT.desc(), child.ID.desc())
                .limit(DSL.inline(1));
    }

    /**
     * The walk as one recursive CTE; each step carries the id, end reason and end time of a session,
     * its hop count and the recursion bound (computed once, in the first row). A hop is one probe of
     * idx_sessions_parent for the children that started after the end, kept when no sibling is newer
     * (a second probe of the same index): no sort per hop, and the child's columns come from that
     * probe, not from another lookup by id.
     */
    private ResultQuery<?> tipQuery() {
        Sessions child = SESSIONS.as("child");
        Sessions sibling = SESSIONS.as("sibling");
        Table<?> walkTable = DSL.table(DSL.name("walk"));
        Field<String> walkId = DSL.field(DSL.name("walk", "id"), String.class);
        Field<String> walkEndReason = DSL.field(DSL.name("walk", "end_reason"), String.class);
        Field<Double> walkEndedAt = DSL.field(DSL.name("walk", "ended_at"), Double.class);
        Field<Long> walkHops = DSL.field(DSL.name("walk", "hops"), Long.class);
        Field<Long> walkBound = DSL.field(DSL.name("walk", "bound"), Long.class);

        Field<Long> childOrder = backend.insertionOrder(child);
        Field<Long> siblingOrder = backend.insertionOrder(sibling);
        Condition newerSibling = sibling.PARENT_SESSION_ID.eq(walkId)
                // first, and from the index alone: the child itself is not fetched a second time
                .and(siblingOrder.ne(childOrder))
                .and(EpochSeconds.column(sibling.STARTED_AT).gt(EpochSeconds.column(child.STARTED_AT))
                        .or(EpochSeconds.column(sibling.STARTED_AT).eq(EpochSeconds.column(child.STARTED_AT)).and(siblingOrder.lt(childOrder))));
        CommonTableExpression<Record5<String, String, Double, Long, Long>> walk = DSL.name("walk")
                .fields("id", "end_reason", "ended_at", "hops", "bound")
                .as(DSL.select(SESSIONS.ID, SESSIONS.END_REASON, EpochSeconds.column(SESSIONS.ENDED_AT), DSL.inline(0L), backend.chainLengthBound())
                        .from(SESSIONS)
                        .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class)))
                        .unionAll(DSL.select(child.ID, child.END_REASON, EpochSeconds.column(child.ENDED_AT), walkHops.plus(DSL.inline(1L)), walkBound)
                                .from(walkTable)
                                .join(child).on(child.PARENT_SESSION_ID.eq(walkId)).and(EpochSeconds.column(child.STARTED_AT).ge(walkEndedAt))
                                .where(walkEndReason.eq(DSL.inline(COMPRESSION)))
                                .and(walkHops.lt(walkBound))
                                .andNotExists(DSL.selectOne().from(sibling).where(newerSibling))));
        return DSL.withRecursive(walk)
                .select(walk.field("id", String.class))
                .from(walk)
                .orderBy(walk.field("hops").desc())
                .limit(DSL.inline(1));
    }

    /**
     * A conversation: {@code sessionId} and the compression children that continue it, up to its
     * {@linkplain #compressionTip tip}, first to last; empty for an unknown id.
     */
    public List<String> conversation(Transaction transaction, String sessionId) throws SQLException {
        List<String> chain = new ArrayList<>();
        for (LineageNode node : ancestors(transaction, compressionTip(transaction, sessionId))) {
            chain.add(0, node.session().id());
            if (node.session().id().equals(sessionId)) {
                return chain;
            }
        }
        return List.of();
    }

    /** The session (depth 0), its parent (1), ... up to its root; empty for an unknown id. */
    public List<LineageNode> ancestors(Transaction transaction, String sessionId) {
        DSLContext dsl = transaction.dsl();
        Field<String> upId = DSL.field(DSL.name("up", "id"), String.class);
        Field<Long> upDepth = DSL.field(DSL.name("up", "depth"), Long.class);
        Sessions step = SESSIONS.as("step");
        CommonTableExpression<Record2<String, Long>> up = DSL.name("up").fields("id", "depth")
                .as(DSL.select(SESSIONS.ID, DSL.inline(0L)).from(SESSIONS).where(SESSIONS.ID.eq(sessionId))
                        .unionAll(DSL.select(step.PARENT_SESSION_ID, upDepth.plus(DSL.inline(1L)))
                                .from(DSL.table(DSL.name("up")))
                                .join(step).on(step.ID.eq(upId))
                                .where(step.PARENT_SESSION_ID.isNotNull())
                                .and(upDepth.lt(backend.chainLengthBound()))));
        List<LineageNode> chain = new ArrayList<>();
        Map<String, Boolean> seen = new HashMap<>();
        for (Record row : dsl.withRecursive(up)
                .select(transaction.schema().fields(SESSIONS)).select(up.field("depth"))
                .from(up).join(SESSIONS).on(SESSIONS.ID.eq(up.field("id", String.class)))
                .orderBy(up.field("depth"))
                .fetch()) {
            Session session = Rows.session(row);
            if (seen.put(session.id(), Boolean.TRUE) != null) {
                break; // a parent cycle: the chain is complete
            }
            chain.add(new LineageNode(session, chain.size()));
        }
        return chain;
    }

    /**
     * The tree under {@code rootId}: the root (depth 0), then depth-first every child after its
     * parent, siblings in started_at order; empty for an unknown id.
     */
    public List<LineageNode> tree(Transaction transaction, String rootId) {
        DSLContext dsl = transaction.dsl();
        Field<String> downId = DSL.field(DSL.name("down", "id"), String.class);
        Field<Long> downDepth = DSL.field(DSL.name("down", "depth"), Long.class);
        Sessions child = SESSIONS.as("child");
        CommonTableExpression<Record2<String, Long>> down = DSL.name("down").fields("id", "depth")
                .as(DSL.select(SESSIONS.ID, DSL.inline(0L)).from(SESSIONS).where(SESSIONS.ID.eq(rootId))
                        .unionAll(DSL.select(child.ID, downDepth.plus(DSL.inline(1L)))
                                .from(DSL.table(DSL.name("down")))
                                .join(child).on(child.PARENT_SESSION_ID.eq(downId))
                                .and(downDepth.lt(backend.chainLengthBound()))));
        Map<String, Session> members = new LinkedHashMap<>();
        for (Record row : dsl.withRecursive(down)
                .selectDistinct(transaction.schema().fields(SESSIONS))
                .from(down).join(SESSIONS).on(SESSIONS.ID.eq(down.field("id", String.class)))
                .fetch()) {
            Session session = Rows.session(row);
            members.put(session.id(), session);
        }
        Session root = members.get(rootId);
        if (root == null) {
            return List.of();
        }
        Map<String, List<Session>> children = new HashMap<>();
        for (Session session : members.values()) {
            if (session.parentSessionId() != null && !session.id().equals(rootId)) {
                children.computeIfAbsent(session.parentSessionId(), parent -> new ArrayList<>()).add(session);
            }
        }
        Comparator<Session> byStart = Comparator.comparing(Session::startedAt).thenComparing(Session::id);
        children.values().forEach(siblings -> siblings.sort(byStart));
        // Iterative depth-first walk: chains thousands deep would overflow a recursive one.
        List<LineageNode> ordered = new ArrayList<>(members.size());
        Deque<LineageNode> stack = new ArrayDeque<>();
        stack.push(new LineageNode(root, 0));
        while (!stack.isEmpty()) {
            LineageNode node = stack.pop();
            ordered.add(node);
            List<Session> below = children.getOrDefault(node.session().id(), List.of());
            for (int i = below.size() - 1; i >= 0; i--) {
                stack.push(new LineageNode(below.get(i), node.depth() + 1));
            }
        }
        return ordered;
    }
}
