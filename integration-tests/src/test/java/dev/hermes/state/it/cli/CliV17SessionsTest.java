package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session commands on a file today's agent wrote (state-v17-upgraded.db: the agent's own upgrade of
 * state-v6.db, then a rewind, an archived compression chain and a compaction), as real processes:
 * the answers are the agent's own, from MANIFEST-v7-v17.md.
 */
class CliV17SessionsTest {
    /** The tip of the archived chain (root 20260310_090000_8520da, four sessions). */
    private static final String ARCHIVED_TIP = "20260310_135900_0957cb";
    private static final String ARCHIVED_ROOT = "20260310_090000_8520da";
    /** The session the agent rewound: message 14 live, 15-19 rewound. */
    private static final String REWOUND = "20260311_080000_2133b2";
    /** list_sessions_rich(limit=100) of the agent: 19 rows, the archived chain left out. */
    private static final List<String> LISTED = List.of("20260315_124812_eeef83", "20260314_114159_49276f",
            "20260314_103446_3e72c1", "20260314_092733_a67437", "20260314_171307_59ec25", "20260314_160654_7acb75",
            "20260313_145228_df7cfa", "20260313_123802_415804", "20260313_102436_7763e8", "20260312_081010_6f2f51",
            "20260312_170357_a2aa49", "20260312_154931_9d7f08", "20260312_144218_15c4f9", "20260311_133505_e8449c",
            "20260311_122852_b6ebb0", "20260311_112139_dc5519", "20260311_101426_eb04fb", "20260311_090713_315582",
            REWOUND);

    @TempDir
    Path dir;

    @Test
    void theListingLeavesOutArchivedSessionsAndShowsThemOnRequest() {
        Cli cli = new Cli(dir);
        String db = Fixtures.copy("state-v17-upgraded.db", dir).toString();

        assertEquals(LISTED, ids(cli.json("--db", db, "--json", "sessions", "list", "--limit", "100")));
        List<String> withArchived = new ArrayList<>(LISTED);
        withArchived.add(ARCHIVED_TIP);  // list_sessions_rich(include_archived=True, limit=100)
        List<String> all = ids(cli.json("--db", db, "--json", "sessions", "list", "--all", "--limit", "100"));
        assertTrue(all.containsAll(withArchived), all.toString());
        assertEquals(30, all.size(), "list_sessions_rich(include_archived=True, include_children=True, limit=100): " + all);
        assertEquals(List.of(ARCHIVED_TIP), ids(cli.json("--db", db, "--json", "sessions", "list", "--archived")));

        String table = cli.run("--db", db, "sessions", "list", "--archived").ok().stdout();
        assertTrue(table.contains(ARCHIVED_TIP) && table.contains("[archived] my project #4"), table);
        assertFalse(cli.run("--db", db, "sessions", "list", "--limit", "100").ok().stdout().contains(ARCHIVED_TIP));
    }

    @Test
    void archiveAndUnarchiveTakeTheWholeCompressionChain() {
        Cli cli = new Cli(dir);
        String db = Fixtures.copy("state-v17-upgraded.db", dir).toString();

        // unarchiving the chain's root lists its tip again, as the agent's set_session_archived(root, False)
        JsonNode unarchived = cli.json("--db", db, "--json", "sessions", "unarchive", ARCHIVED_ROOT);
        assertEquals(ARCHIVED_ROOT, unarchived.get("session_id").asText());
        assertFalse(unarchived.get("archived").asBoolean());
        assertTrue(unarchived.get("updated").asBoolean());
        List<String> listed = ids(cli.json("--db", db, "--json", "sessions", "list", "--limit", "100"));
        assertEquals(20, listed.size(), listed.toString());
        assertEquals(ARCHIVED_TIP, listed.get(19));
        assertEquals(List.of(), ids(cli.json("--db", db, "--json", "sessions", "list", "--archived")));
        for (String id : List.of(ARCHIVED_ROOT, "20260310_113000_6c0e5a", "20260310_125900_7d739b", ARCHIVED_TIP)) {
            assertFalse(session(cli, db, id).get("archived").asBoolean(), id);
        }

        List<String> out = cli.run("--db", db, "sessions", "archive", ARCHIVED_TIP).ok().lines();
        assertEquals(List.of("Archived " + ARCHIVED_TIP + ": left out of 'sessions list' (see it with --archived)."
                + " Undo: hermes-state sessions unarchive " + ARCHIVED_TIP), out);
        assertEquals(LISTED, ids(cli.json("--db", db, "--json", "sessions", "list", "--limit", "100")));
        for (String id : List.of(ARCHIVED_ROOT, "20260310_113000_6c0e5a", "20260310_125900_7d739b", ARCHIVED_TIP)) {
            assertTrue(session(cli, db, id).get("archived").asBoolean(), id);
        }
        // the delegate child of the root is not part of the compression chain
        assertFalse(session(cli, db, "20260310_090500_53bef4").get("archived").asBoolean());
    }

    @Test
    void showHidesRewoundTurnsAndMarksThemOnRequest() {
        Cli cli = new Cli(dir);
        String db = Fixtures.copy("state-v17-upgraded.db", dir).toString();

        assertEquals(List.of(14L), messageIds(session(cli, db, REWOUND)));
        JsonNode hidden = cli.json("--db", db, "--json", "sessions", "show", REWOUND, "--hidden");
        assertEquals(List.of(14L, 15L, 16L, 17L, 18L, 19L), messageIds(hidden));
        for (JsonNode message : hidden.get("messages")) {
            assertEquals(message.get("id").asLong() == 14 ? 1 : 0, message.get("active").asInt(), message.toString());
            assertEquals(0, message.get("compacted").asInt(), message.toString());
        }
        String transcript = cli.run("--db", db, "sessions", "show", REWOUND).ok().stdout();
        assertFalse(transcript.contains("[rewound]"), transcript);
        String marked = cli.run("--db", db, "sessions", "show", REWOUND, "--hidden").ok().stdout();
        assertEquals(5, marked.split("\\[rewound]", -1).length - 1, marked);
    }

    @Test
    void rewindThenRestoreGivesBackTheSameTranscript() {
        Cli cli = new Cli(dir);
        String db = Fixtures.copy("state-v17-upgraded.db", dir).toString();

        JsonNode restored = cli.json("--db", db, "--json", "sessions", "restore", REWOUND, "15");
        assertEquals(5, restored.get("restored").asInt());
        assertEquals(List.of(14L, 15L, 16L, 17L, 18L, 19L), messageIds(session(cli, db, REWOUND)));

        JsonNode rewound = cli.json("--db", db, "--json", "sessions", "rewind", REWOUND, "15");
        assertEquals(5, rewound.get("rewound_count").asInt(), rewound.toString());
        assertEquals(14, rewound.get("new_head_id").asLong(), rewound.toString());
        assertEquals(List.of(14L), messageIds(session(cli, db, REWOUND)));
        assertEquals(2, session(cli, db, REWOUND).get("rewind_count").asInt(), "the agent's rewind, then this one");
    }

    private static JsonNode session(Cli cli, String db, String id) {
        return cli.json("--db", db, "--json", "sessions", "show", id);
    }

    private static List<String> ids(JsonNode rows) {
        List<String> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.get("id").asText()));
        return ids;
    }

    private static List<Long> messageIds(JsonNode session) {
        List<Long> ids = new ArrayList<>();
        session.get("messages").forEach(message -> ids.add(message.get("id").asLong()));
        return ids;
    }
}
