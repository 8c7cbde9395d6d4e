package dev.hermes.state.core;

import dev.hermes.state.core.search.SearchHit;
import dev.hermes.state.core.search.SearchQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * search_messages through the store (the search itself is tested in the search package): on the
 * Python agent's version-6 file as it is, read-only, and on an adopted version-2 file.
 */
class StoreSearchTest {
    @TempDir
    Path dir;

    @Test
    void searchesTheAgentsFiles() {
        try (StateRepository v6 = StateRepository.openReadOnly(TestStores.copyFixture("state-v6.db", dir));
             StateRepository v2 = StateRepository.open(TestStores.copyFixture("state-v2.db", dir))) {
            for (StateRepository store : List.of(v6, v2)) {
                assertEquals(List.of(30L, 31L, 79L, 80L), ids(store, SearchQuery.builder("docker").limit(50).build()));
                assertEquals(List.of(2L, 8L, 9L, 10L, 11L, 12L, 13L, 96L), ids(store, SearchQuery.builder("\"database migration\"").limit(50).build()));
                assertEquals(List.of(55L), ids(store, SearchQuery.of("ENDMARKER_7f3a")));
                assertEquals(List.of(49L, 50L), ids(store, SearchQuery.of("C++")));
                assertEquals(List.of(42L, 46L), ids(store, SearchQuery.of("chat-send")));
                assertEquals(List.of(), ids(store, SearchQuery.of("   ")));
                assertEquals(List.of(), ids(store, SearchQuery.builder("docker").sourceFilter(List.of()).build()));
                assertEquals(List.of(30L, 31L), ids(store, SearchQuery.builder("docker").sourceFilter(List.of("cli")).build()));
            }
            List<SearchHit> hits = v6.searchMessages(SearchQuery.of("ENDMARKER_7f3a"));
            assertEquals("20260312_091723_9a58a3", hits.get(0).sessionId());
            assertEquals("slack", hits.get(0).source());
        }
    }

    private static List<Long> ids(StateRepository store, SearchQuery query) {
        return store.searchMessages(query).stream().map(SearchHit::id).sorted().toList();
    }
}
