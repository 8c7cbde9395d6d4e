package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.Fixtures;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Python-made fixture files and what MANIFEST.md says about each. */
enum HermesFixture {
    V1("state-v1.db", 1, 27),
    V2("state-v2.db", 2, 27),
    V3_FOREIGN("state-v3-foreign.db", 3, 27),
    V4("state-v4.db", 4, 17),
    V5("state-v5.db", 5, 17),
    V6("state-v6.db", 6, 17);

    /** MANIFEST "Raw FTS5": the same answers in every fixture (message id and session id). */
    static final Map<String, List<String>> RAW_FTS_ANSWERS = rawFtsAnswers();

    final String fileName;
    final int version;
    final long sumToolCallCount;

    HermesFixture(String fileName, int version, long sumToolCallCount) {
        this.fileName = fileName;
        this.version = version;
        this.sumToolCallCount = sumToolCallCount;
    }

    Path copyInto(Path dir) {
        return Fixtures.copy(fileName, dir);
    }

    /**
     * Whether the file already has what a changeset creates, so adoption records it as MARK_RAN.
     * Upstream files have every step up to their number. The foreign file says 3 but lacks the v3
     * column (title): only its number (the v3 schema-version step) counts as present.
     */
    boolean alreadyHas(String changeSetId, int changeSetVersion) {
        if (changeSetId.startsWith("windows-")) {
            return false; // hermes-state's own tables: no file the Python agent made has them
        }
        if (this == V3_FOREIGN) {
            return changeSetVersion <= 2 || changeSetId.equals("v3-schema-version");
        }
        return changeSetVersion <= version;
    }

    /** Objects of another application an adopted file keeps. */
    Set<String> foreignObjects() {
        return this == V3_FOREIGN
                ? Set.of("table invocation_log", "index idx_invocation_log_created", "index idx_invocation_log_source",
                        "index idx_invocation_log_tool", "index sqlite_autoindex_invocation_log_1")
                : Set.of();
    }

    /** MANIFEST "row counts" of every table. */
    Map<String, Long> rowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (this == V3_FOREIGN) {
            counts.put("invocation_log", 5L);
        }
        counts.put("messages", 95L);
        counts.put("messages_fts", 95L);
        counts.put("messages_fts_config", 1L);
        counts.put("messages_fts_data", 14L);
        counts.put("messages_fts_docsize", 95L);
        counts.put("messages_fts_idx", 12L);
        counts.put("schema_version", 1L);
        counts.put("sessions", 30L);
        counts.put("sqlite_sequence", 1L);
        return counts;
    }

    private static Map<String, List<String>> rawFtsAnswers() {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        answers.put("docker", List.of("30 (20260311_122852_b6ebb0)", "31 (20260311_122852_b6ebb0)",
                "79 (20260314_160654_7acb75)", "80 (20260314_160654_7acb75)"));
        answers.put("\"database migration\"", List.of("2 (20260310_090000_8520da)", "8 (20260310_113000_6c0e5a)",
                "9 (20260310_113000_6c0e5a)", "10 (20260310_125900_7d739b)", "11 (20260310_125900_7d739b)",
                "12 (20260310_135900_0957cb)", "13 (20260310_135900_0957cb)", "96 (20260315_124812_eeef83)"));
        answers.put("deploy*", List.of("9 (20260310_113000_6c0e5a)", "11 (20260310_125900_7d739b)",
                "13 (20260310_135900_0957cb)", "23 (20260311_101426_eb04fb)", "30 (20260311_122852_b6ebb0)",
                "84 (20260314_082020_73b220)", "88 (20260314_082020_73b220)"));
        answers.put("数据库迁移", List.of("20 (20260311_090713_315582)"));
        answers.put("ENDMARKER_7f3a", List.of("55 (20260312_091723_9a58a3)"));
        answers.put("kubernetes OR k8s", List.of("47 (20260312_170357_a2aa49)", "48 (20260312_170357_a2aa49)",
                "84 (20260314_082020_73b220)"));
        answers.put("迁移", List.of());
        answers.put("\"chat-send\"", List.of("42 (20260312_165644_c7084c)", "46 (20260312_165644_c7084c)"));
        return answers;
    }
}
