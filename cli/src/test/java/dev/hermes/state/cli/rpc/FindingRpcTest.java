package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The finding methods over the RPC on the agent's own schema-17 file, as its v17 SessionDB answers them
 * (measured on the same file): the keyword arguments today's agent takes, what it ignores, and the
 * shapes of its answers.
 */
class FindingRpcTest {
    private static final String L1 = "20260310_090000_8520da";
    private static final String L4 = "20260310_135900_0957cb";

    @TempDir
    Path dir;
    private StateRepository store;
    private RpcServer server;

    @BeforeEach
    void open() {
        store = StateRepository.builder().path(Fixtures.copy("state-v17.db", dir)).schemaVersion(17).build();
        server = new RpcServer(() -> store, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private Object result(String method, String params) {
        Map<?, ?> response = server.handle("{\"id\": 1, \"method\": \"" + method + "\", \"params\": " + params + "}").body();
        assertTrue(response.containsKey("result"), method + " " + params + ": " + response);
        return response.get("result");
    }

    private List<Object> ids(String method, String params) {
        return ((List<?>) result(method, params)).stream().map(row -> ((Map<?, ?>) row).get("id")).map(Object.class::cast)
                .toList();
    }

    @Test
    void anIdQueryWithoutTheOrderByActivityIsIgnoredAsTheAgentIgnoresIt() {
        assertEquals(ids("list_sessions_rich", "{}"), ids("list_sessions_rich", "{\"id_query\": \"e4c1c\", \"search_query\": \"x\"}"));
        assertEquals(List.of("20260402_081500_e4c1c5"),
                ids("list_sessions_rich", "{\"order_by_last_active\": true, \"id_query\": \"e4c1c\", \"include_archived\": true}"));
    }

    @Test
    void aProjectedRowCarriesTheTipsWorkspaceKeys() {
        Map<?, ?> row = ((List<?>) result("list_sessions_rich", "{\"limit\": 100}")).stream().map(Map.class::cast)
                .filter(r -> "20260401_083000_e4c1a0".equals(r.get("id"))).findFirst().orElseThrow();
        assertEquals("/home/astro/ephemeris", row.get("cwd"));
        assertEquals("feature/encke-orbit", row.get("git_branch"));
        assertEquals("/home/astro/ephemeris", row.get("git_repo_root"));
        assertEquals("When is the next perihelion of comet Encke?", row.get("preview"));
    }

    @Test
    void countsTipsResumeAndIdSearch() {
        assertEquals(41L, result("session_count", "{}"));
        assertEquals(43L, result("session_count", "{\"include_archived\": true}"));
        assertEquals(36L, result("session_count", "{\"exclude_children\": true}"));
        assertEquals(L4, result("get_compression_tip", "{\"session_id\": \"" + L1 + "\"}"));
        assertEquals(L4, result("resolve_resume_session_id", "{\"session_id\": \"" + L1 + "\"}"));
        assertEquals("", result("resolve_resume_session_id", "{\"session_id\": \"\"}"));
        assertEquals(null, result("resolve_resume_session_id", "{\"session_id\": null}"));
        assertEquals(List.of("20260402_081500_e4c1c5"), ids("search_sessions_by_id", "{\"query\": \"e4c1c\"}"));
        assertEquals(List.of(), ids("search_sessions_by_id", "{\"query\": \"e4c1c\", \"limit\": 0}"));
        assertEquals(List.of(Map.of("cwd", "/home/astro/ephemeris", "sessions", 1L),
                        Map.of("cwd", "/home/astro/telescope", "sessions", 1L)),
                ((List<?>) result("distinct_session_cwds", "{}")).stream().map(Map.class::cast)
                        .map(r -> Map.of("cwd", r.get("cwd"), "sessions", r.get("sessions"))).toList());
    }

    @Test
    void searchSessionsAddsLastActiveAndOrdersByIt() {
        List<?> rows = (List<?>) result("search_sessions", "{\"limit\": 3}");
        assertEquals(List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b", "20260402_120000_e4c20a"),
                rows.stream().map(row -> ((Map<?, ?>) row).get("id")).toList());
        assertTrue(((Map<?, ?>) rows.get(0)).containsKey("last_active"));
    }

    @Test
    void searchMessagesTakesSortAndIncludeInactive() {
        assertEquals(List.of(), ids("search_messages", "{\"query\": \"magnetar\"}"));
        assertEquals(List.of(106L, 107L), ids("search_messages", "{\"query\": \"magnetar\", \"include_inactive\": true,"
                + " \"sort\": \"oldest\"}"));
        assertEquals(List.of(138L, 136L, 135L), ids("search_messages", "{\"query\": \"nebula\", \"sort\": 7}"));
    }
}
