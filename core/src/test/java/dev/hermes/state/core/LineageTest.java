package dev.hermes.state.core;

import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/behaviour.md#lineage: compression tips, ancestors and trees, deep chains and cycles. */
class LineageTest extends FreshStoreTest {
    private void child(String id, String parent) {
        store.createSession(NewSession.builder(id, "cli").parentSessionId(parent).build());
    }

    @Test
    void tipFollowsCompressionChildrenAndSkipsDelegates() {
        store.createSession("root", "cli");
        child("delegate", "root");              // started while root was live
        store.endSession("root", "compression");
        child("second", "root");                // started after root ended: the continuation
        child("side-task", "second");           // a delegate of the second one
        store.endSession("side-task", "delegate_complete");
        store.endSession("second", "compression");
        child("third", "second");
        assertEquals("third", store.getCompressionTip("root"));
        assertEquals("third", store.getCompressionTip("second"));
        assertEquals("third", store.getCompressionTip("third"));
        assertEquals("delegate", store.getCompressionTip("delegate"));
    }

    @Test
    void tipStopsAtSessionsNotEndedByCompression() {
        store.createSession("a", "cli");
        store.endSession("a", "branched");
        child("b", "a");
        assertEquals("a", store.getCompressionTip("a"), "only a compression end continues the chain");
        store.createSession("lonely", "cli");
        store.endSession("lonely", "compression");
        assertEquals("lonely", store.getCompressionTip("lonely"), "a compression root without child is its own tip");
        assertEquals("nobody", store.getCompressionTip("nobody"), "an unknown id is its own tip");
    }

    @Test
    void tipTakesTheNewestChildStartedAfterTheEnd() {
        store.createSession("root", "cli");
        store.endSession("root", "compression");
        child("older", "root");
        child("newer", "root");
        assertEquals("newer", store.getCompressionTip("root"));
    }

    /** Newest by started_at, not by creation; at equal started_at the first created wins, as in Hermes. */
    @Test
    void tipOrdersChildrenByStartThenCreation() throws Exception {
        store.createSession("root", "cli");
        store.endSession("root", "compression");
        child("created-first", "root");
        child("created-second", "root");
        child("created-third", "root");
        double rootEnd = queryLong("SELECT CAST(ended_at AS INTEGER) FROM sessions WHERE id = 'root'");
        execute(
                "UPDATE sessions SET started_at = " + (rootEnd + 50) + " WHERE id = 'created-first'",
                "UPDATE sessions SET started_at = " + (rootEnd + 20) + " WHERE id IN ('created-second', 'created-third')");
        assertEquals("created-first", store.getCompressionTip("root"), "the latest start wins, whatever the creation order");
        execute("UPDATE sessions SET started_at = " + (rootEnd + 20) + " WHERE id = 'created-first'");
        assertEquals("created-first", store.getCompressionTip("root"), "a tie goes to the first created");
        execute("UPDATE sessions SET started_at = " + (rootEnd + 10) + " WHERE id = 'created-first'");
        assertEquals("created-second", store.getCompressionTip("root"));
        execute("UPDATE sessions SET started_at = " + (rootEnd - 10) + " WHERE id IN ('created-second', 'created-third')");
        assertEquals("created-first", store.getCompressionTip("root"), "children started before the end are not continuations");
    }

    @Test
    void ancestorsWalkUpToTheRoot() {
        store.createSession("r", "cli");
        child("c", "r");
        child("g", "c");
        assertEquals(List.of("g:0", "c:1", "r:2"), labels(store.getAncestors("g")));
        assertEquals(List.of("r:0"), labels(store.getAncestors("r")));
        assertEquals(List.of(), store.getAncestors("nobody"));
    }

    @Test
    void treeIsDepthFirstWithSiblingsByStart() {
        store.createSession("r", "cli");
        child("c1", "r");
        child("c2", "r");
        child("g1", "c1");
        child("g2", "c2");
        child("gg", "g1");
        store.createSession("unrelated", "cli");
        assertEquals(List.of("r:0", "c1:1", "g1:2", "gg:3", "c2:1", "g2:2"), labels(store.getLineageTree("r")));
        assertEquals(List.of("c2:0", "g2:1"), labels(store.getLineageTree("c2")));
        assertEquals(List.of(), store.getLineageTree("nobody"));
    }

    @Test
    void aChain2000DeepIsWalkedCompletely() {
        int depth = 2000;
        store.inWriteTransaction(dsl -> {
            double t = 1_773_133_200.0;
            for (int hop = 0; hop <= depth; hop++) {
                dsl.insertInto(SESSIONS)
                        .set(SESSIONS.ID, "chain-" + hop)
                        .set(SESSIONS.SOURCE, "cli")
                        .set(SESSIONS.PARENT_SESSION_ID, hop == 0 ? null : "chain-" + (hop - 1))
                        .set(SESSIONS.STARTED_AT, Instant.ofEpochSecond((long) t + 2L * hop))
                        .set(SESSIONS.ENDED_AT, hop == depth ? null : Instant.ofEpochSecond((long) t + 2L * hop + 1))
                        .set(SESSIONS.END_REASON, hop == depth ? null : "compression")
                        .execute();
            }
            return null;
        });
        assertEquals("chain-" + depth, store.getCompressionTip("chain-0"));
        List<LineageNode> ancestors = store.getAncestors("chain-" + depth);
        List<LineageNode> tree = store.getLineageTree("chain-0");
        assertEquals(depth + 1, ancestors.size());
        assertEquals("chain-0", ancestors.get(depth).session().id());
        assertEquals(depth, ancestors.get(depth).depth());
        assertEquals(depth + 1, tree.size());
        assertEquals("chain-" + depth, tree.get(depth).session().id());
        assertEquals(depth, tree.get(depth).depth());
        List<RichSession> listed = store.listSessionsRich(ListSessionsQuery.defaults());
        assertEquals(1, listed.size());
        assertEquals("chain-" + depth, listed.get(0).session().id());
        assertEquals("chain-0", listed.get(0).lineageRootId());
    }

    @Test
    void parentCyclesEndTheWalksInsteadOfLoopingForever() throws Exception {
        store.createSession("a", "cli");
        child("b", "a");
        // Only a hand-edited file can hold a cycle: a's parent is b, b's parent is a, both "compressed"
        // with times that let each be the other's continuation.
        execute(
                "UPDATE sessions SET parent_session_id = 'b', started_at = 40, ended_at = 10, end_reason = 'compression' WHERE id = 'a'",
                "UPDATE sessions SET started_at = 20, ended_at = 30, end_reason = 'compression' WHERE id = 'b'");
        String tip = store.getCompressionTip("a");
        assertTrue(tip.equals("a") || tip.equals("b"), tip);
        assertEquals(List.of("a:0", "b:1"), labels(store.getAncestors("a")));
        assertEquals(List.of("a:0", "b:1"), labels(store.getLineageTree("a")));
    }

    static List<String> labels(List<LineageNode> nodes) {
        List<String> labels = new ArrayList<>();
        for (LineageNode node : nodes) {
            labels.add(node.session().id() + ":" + node.depth());
        }
        return labels;
    }
}
