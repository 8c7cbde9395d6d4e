package dev.hermes.state.core;

import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Finding sessions and messages in the files today's agent wrote (state-v17.db, made at schema 17, and
 * state-v17-upgraded.db, the v6 file after the agent's own upgrade, a rewind, an archived lineage and a
 * compaction): every answer MANIFEST-v7-v17.md lists (the agent's read-write answers), on a store
 * opened read-write at 17 and on one opened read-only (which searches too; the agent's read-only
 * SessionDB never enables its full-text index and finds nothing). Rows shown as {@code tip<root} are
 * compression roots projected onto their tips. Snippets, contexts and workspaces beyond the manifest
 * are the agent's answers on the same files.
 */
class V17FixtureFindingTest {
    private static final String L1 = "20260310_090000_8520da";
    private static final String L4 = "20260310_135900_0957cb";
    private static final String STAR_ROOT = "20260402_080000_e4c1c4";
    private static final String STAR_TIP = "20260402_081500_e4c1c5";

    /** The 30-session data set's listed rows after the v7-v17 block, newest start first (state-v17.db). */
    private static final List<String> V17_LISTED_TAIL = List.of("20260314_171307_59ec25", "20260314_160654_7acb75",
            "20260313_155941_d69e91", "20260313_145228_df7cfa", "20260313_134515_754d10", "20260313_123802_415804",
            "20260313_113149_7a0ee5", "20260313_102436_7763e8", "20260312_091723_9a58a3", "20260312_081010_6f2f51",
            "20260312_170357_a2aa49", "20260312_165644_c7084c", "20260312_154931_9d7f08", "20260312_144218_15c4f9",
            "20260311_133505_e8449c", "20260311_122852_b6ebb0", "20260311_112139_dc5519", "20260311_101426_eb04fb",
            "20260311_090713_315582", "20260311_080000_2133b2");

    @TempDir
    Path dir;

    private static List<Long> ids(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::id).toList();
    }

    private static List<String> rows(StateRepository store, ListSessionsQuery.Builder query) {
        return store.listSessionsRich(query.build()).stream()
                .map(row -> row.session().id() + (row.lineageRootId() == null ? "" : "<" + row.lineageRootId())).toList();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }

    // ------------------------------------------------------------------ state-v17.db

    @Test
    void theV17FileReadWrite() {
        try (StateRepository store = StateRepository.builder().path(Fixtures.copy("state-v17.db", dir)).schemaVersion(17).build()) {
            checkV17File(store);
        }
    }

    @Test
    void theV17FileReadOnlySearchesToo() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir))) {
            checkV17File(store);
        }
    }

    private void checkV17File(StateRepository store) {
        Map<String, List<Long>> searches = Map.of(
                "星图", List.of(123L, 122L, 107L, 106L),
                "射电望远镜", List.of(122L, 123L),
                "orrery_lookup", List.of(102L, 99L),
                "magnetar", List.of(),
                "meteorite", List.of(126L, 129L),
                "nebula", List.of(138L, 136L, 135L));
        searches.forEach((query, expected) -> assertEquals(expected, ids(store.searchMessages(SearchQuery.of(query))), query));

        List<SearchHit> lookups = store.searchMessages(SearchQuery.of("orrery_lookup"));
        assertEquals(List.of("{\"body\": \"2P/Encke\", \"perihelion\": \"2027-02-09\", \"q_au\": 0.34} >>>orrery_lookup<<< ",
                "  [{\"id\": \"call_e001\", \"type\": \"function\", \"function\": {\"name\": \">>>orrery_lookup<<<\","
                        + " \"arguments\": \"{\\\"body\\\": \\\"2P/Encke\\\", \\\"event\\\": \\\"perihelion\\\"}\"}}]"),
                lookups.stream().map(SearchHit::snippet).toList());
        assertEquals(List.of(" note on magnetar flares and redraw the 星图 overlay."),
                store.searchMessages(SearchQuery.of("星图")).stream().filter(hit -> hit.id() == 106)
                        .map(SearchHit::snippet).toList());
        SearchHit photo = store.searchMessages(SearchQuery.of("nebula")).get(2);
        assertEquals(List.of(new ContextMessage("user", "Which nebula is in this photo?"),
                new ContextMessage("assistant", "That is the Horsehead nebula (Barnard 33) in Orion.")), photo.context());

        List<String> head = List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b", "20260402_120000_e4c20a",
                "20260402_110000_e4c1f9", "20260402_100000_e4c1e8", "20260402_091000_e4c1d7", "20260402_090000_e4c1d6");
        List<String> older = List.of("20260401_094500_e4c1b3", "20260401_091500_e4c1b2", "20260401_083000_e4c1a0",
                "20260315_124812_eeef83", "20260314_114159_49276f", "20260314_103446_3e72c1", "20260314_092733_a67437",
                "20260314_082020_73b220");
        List<String> listed = concat(concat(head, older), V17_LISTED_TAIL);
        List<String> archived = concat(concat(head, List.of(STAR_TIP + "<" + STAR_ROOT)), concat(older, V17_LISTED_TAIL));
        assertEquals(listed.subList(0, 20), rows(store, ListSessionsQuery.builder()));
        assertEquals(archived.subList(0, 20), rows(store, ListSessionsQuery.builder().includeArchived(true)));
        assertEquals(concat(listed, List.of(L4 + "<" + L1)), rows(store, ListSessionsQuery.builder().limit(100)));
        assertEquals(concat(archived, List.of(L4 + "<" + L1)),
                rows(store, ListSessionsQuery.builder().includeArchived(true).limit(100)));

        Map<String, RichSession> byId = store.listSessionsRich(ListSessionsQuery.builder().limit(100).build()).stream()
                .collect(java.util.stream.Collectors.toMap(row -> row.session().id(), Function.identity()));
        assertEquals(new RichSession.Workspace("/home/astro/ephemeris", "feature/encke-orbit", "/home/astro/ephemeris"),
                byId.get("20260401_083000_e4c1a0").workspace());
        assertEquals("When is the next perihelion of comet Encke?", byId.get("20260401_083000_e4c1a0").preview());
        assertEquals("/home/astro/telescope", byId.get("20260402_090000_e4c1d6").workspace().cwd());
        assertEquals("", byId.get("20260402_130000_e4c21b").preview()); // its first user message is structured

        assertEquals(41, store.sessionCount());
        assertEquals(43, store.sessionCount(SessionCountQuery.builder().includeArchived(true).build()));
        assertEquals(36, store.sessionCount(SessionCountQuery.builder().excludeChildren(true).build()));
        assertEquals(2, store.sessionCount(SessionCountQuery.builder().archivedOnly(true).build()));
        assertEquals(L4, store.getCompressionTip(L1));
        assertEquals(STAR_TIP, store.getCompressionTip(STAR_ROOT));
        assertEquals(L4, store.resolveResumeSessionId(L1));
        assertEquals(STAR_TIP, store.resolveResumeSessionId(STAR_ROOT));
        assertEquals(List.of(STAR_TIP), store.searchSessionsById("e4c1c", 20, true).stream()
                .map(row -> row.session().id()).toList());
        assertEquals(List.of("/home/astro/ephemeris", "/home/astro/telescope"),
                store.distinctSessionCwds(false).stream().map(dev.hermes.state.core.model.SessionCwd::cwd).toList());
    }

    // ------------------------------------------------------------------ state-v17-upgraded.db

    @Test
    void theUpgradedFileReadWrite() {
        try (StateRepository store = StateRepository.builder().path(Fixtures.copy("state-v17-upgraded.db", dir))
                .schemaVersion(17).build()) {
            checkUpgradedFile(store);
        }
    }

    @Test
    void theUpgradedFileReadOnlySearchesToo() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17-upgraded.db", dir))) {
            checkUpgradedFile(store);
        }
    }

    private void checkUpgradedFile(StateRepository store) {
        Map<String, List<Long>> searches = Map.of(
                "评估", List.of(21L),
                "数据库", List.of(91L, 92L, 20L, 21L),
                "cronjob", List.of(62L, 61L),
                "authorization", List.of(),
                "manifests", List.of(84L),
                "staging", List.of(9L, 11L, 13L));
        searches.forEach((query, expected) -> assertEquals(expected, ids(store.searchMessages(SearchQuery.of(query))), query));

        List<String> listed = List.of("20260315_124812_eeef83", "20260314_114159_49276f", "20260314_103446_3e72c1",
                "20260314_092733_a67437", "20260314_171307_59ec25", "20260314_160654_7acb75", "20260313_145228_df7cfa",
                "20260313_123802_415804", "20260313_102436_7763e8", "20260312_081010_6f2f51", "20260312_170357_a2aa49",
                "20260312_154931_9d7f08", "20260312_144218_15c4f9", "20260311_133505_e8449c", "20260311_122852_b6ebb0",
                "20260311_112139_dc5519", "20260311_101426_eb04fb", "20260311_090713_315582", "20260311_080000_2133b2");
        List<String> withArchived = concat(listed, List.of(L4 + "<" + L1));
        assertEquals(listed, rows(store, ListSessionsQuery.builder()));
        assertEquals(withArchived, rows(store, ListSessionsQuery.builder().includeArchived(true)));
        assertEquals(listed, rows(store, ListSessionsQuery.builder().limit(100)));
        assertEquals(withArchived, rows(store, ListSessionsQuery.builder().includeArchived(true).limit(100)));

        assertEquals(26, store.sessionCount());
        assertEquals(30, store.sessionCount(SessionCountQuery.builder().includeArchived(true).build()));
        assertEquals(19, store.sessionCount(SessionCountQuery.builder().excludeChildren(true).build()));
        assertEquals(L4, store.getCompressionTip(L1));
    }
}
