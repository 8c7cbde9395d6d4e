package dev.hermes.state.core.lineage;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private final Backend backend;
    private final PreparedQuery tipQuery;

    public Lineage(Backend backend) {
        this.backend = backend;
        this.tipQuery = PreparedQuery.of(this::tipQuery, "sessionId");
    }

    /**
     * get_compression_tip: from {@code sessionId}, while the current session ended with
     * {@code compression}, step to its newest child that started at or after that end (delegates
     * and branches start before it and are skipped); the last session reached. Children started at
     * the same moment: the first created wins, as with Hermes' {@code ORDER BY started_at DESC LIMIT 1}
     * over the parent index. An unknown id is its own tip.
     */
    public String compressionTip(Transaction transaction, String sessionId) throws SQLException {
        Result<Record> tip = tipQuery.fetch(transaction, sessionId);
        return tip.isEmpty() ? sessionId : tip.get(0).get(0, String.class);
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
