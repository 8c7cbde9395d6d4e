package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.Fixtures;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Python-made fixture files, what their manifests say about each, and what the version-17 agent's own
 * open (7e8f50a, on a private copy) made of each: the version-17 row counts, the sessions whose
 * model_config its version-16 step tagged, and digests of every row ({@link SqliteDb#rowsDigest},
 * {@link SqliteDb#fullTextDigest}) of the file it left. A migration by hermes-state must leave the same.
 */
enum HermesFixture {
    V1("state-v1.db", 1, 95, 27, Tagging.UNTITLED_ROOTS,
            "compression_locks=0, messages=95, messages_fts=95, messages_fts_config=1, messages_fts_content=95,"
                    + " messages_fts_data=13, messages_fts_docsize=95, messages_fts_idx=11, messages_fts_trigram=95,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=95, messages_fts_trigram_data=41,"
                    + " messages_fts_trigram_docsize=95, messages_fts_trigram_idx=39, schema_version=1, sessions=30,"
                    + " sqlite_sequence=1, state_meta=0",
            "554c57cc8b289c629b4165f13932095b258f565d042d47b7a712cafa56c7f09c", DataSet.FULL_TEXT_V1_TO_V6),
    V2("state-v2.db", 2, 95, 27, Tagging.UNTITLED_ROOTS, DataSet.COUNTS_V1_TO_V6,
            "a5e1cf4550684a140462eefbdaae50ea4bf895bcf902907f14fb493e1555f067", DataSet.FULL_TEXT_V1_TO_V6),
    V3_FOREIGN("state-v3-foreign.db", 3, 95, 27, Tagging.UNTITLED_ROOTS, "invocation_log=5, " + DataSet.COUNTS_V1_TO_V6,
            "817f509db0b953a08b542d2db23e157bdab459709ae1c118537415775286d64c", DataSet.FULL_TEXT_V1_TO_V6),
    V4("state-v4.db", 4, 95, 17, Tagging.DATA_SET, DataSet.COUNTS_V1_TO_V6,
            "d09f066441fd9b5058950a76957cc32abb7dc174103c9fefdcc0a9495befcefb", DataSet.FULL_TEXT_V1_TO_V6),
    V5("state-v5.db", 5, 95, 17, Tagging.DATA_SET, DataSet.COUNTS_V1_TO_V6,
            "e027b6a498d764389ec9555e97ec0c0f7041d5d3ebcf7ecf42d2762c07839c9e", DataSet.FULL_TEXT_V1_TO_V6),
    V6("state-v6.db", 6, 95, 17, Tagging.DATA_SET, DataSet.COUNTS_V1_TO_V6,
            "454ab164fb93fbdbc2cba967996bc14799ecfa90d6c8d7356f185555656a37ed", DataSet.FULL_TEXT_V1_TO_V6),
    V8("state-v8.db", 8, 134, 20, Tagging.FEATURE_BLOCK,
            "compression_locks=0, messages=134, messages_fts=134, messages_fts_config=1, messages_fts_content=134,"
                    + " messages_fts_data=13, messages_fts_docsize=134, messages_fts_idx=11, messages_fts_trigram=134,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=134, messages_fts_trigram_data=43,"
                    + " messages_fts_trigram_docsize=134, messages_fts_trigram_idx=41, schema_version=1, sessions=42,"
                    + " sqlite_sequence=1, state_meta=2",
            "d4ca9518aed21cc04c53b053f29892fc3c01e3b75804cff2b5d463395316d160",
            "1c1e84161e1fba453e8c4d5b057dc288964e969daecbc66d0907f8f04035dece"),
    V10("state-v10.db", 10, 134, 20, Tagging.FEATURE_BLOCK, V8.agentRowCounts,
            "700113362526d7bf61e52f3e6204179444f4e4b83f8d7559f62179712c422ada",
            "1c1e84161e1fba453e8c4d5b057dc288964e969daecbc66d0907f8f04035dece"),
    V11("state-v11.db", 11, 134, 20, Tagging.FEATURE_BLOCK,
            "compression_locks=0, messages=134, messages_fts=134, messages_fts_config=1, messages_fts_content=134,"
                    + " messages_fts_data=16, messages_fts_docsize=134, messages_fts_idx=14, messages_fts_trigram=134,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=134, messages_fts_trigram_data=53,"
                    + " messages_fts_trigram_docsize=134, messages_fts_trigram_idx=51, schema_version=1, sessions=42,"
                    + " sqlite_sequence=1, state_meta=2",
            "053da82ce8b2d33cd78b89c500057669ad7de994a01f66b568c42ba1de45ca7b",
            "8585aa03a92746d7386152c79f3b9424af5cc65130096dd32078c8fc001b8683"),
    V12("state-v12.db", 12, 138, 20, Tagging.FEATURE_BLOCK,
            "compression_locks=0, messages=138, messages_fts=138, messages_fts_config=1, messages_fts_content=138,"
                    + " messages_fts_data=20, messages_fts_docsize=138, messages_fts_idx=18, messages_fts_trigram=138,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=138, messages_fts_trigram_data=55,"
                    + " messages_fts_trigram_docsize=138, messages_fts_trigram_idx=53, schema_version=1, sessions=43,"
                    + " sqlite_sequence=1, state_meta=2",
            "8e6dee83ac6fcaf108125ae8df68721358afdaebcc0a3e1642fc682503282e5a",
            "9e9a94d8aa0b652e510f43046675fb107f42f3ec0e9577730a82e2eb7d1dd6fa"),
    V14("state-v14.db", 14, 138, 20, Tagging.FEATURE_BLOCK, V12.agentRowCounts.replace("compression_locks=0", "compression_locks=1"),
            "b5ace7ca9df897470abef6f8425d204a1a23ce05a13df3b6aaca08b4d1b7f359",
            "9e9a94d8aa0b652e510f43046675fb107f42f3ec0e9577730a82e2eb7d1dd6fa"),
    V16("state-v16.db", 16, 138, 20, Tagging.NONE,
            "compression_locks=1, messages=138, messages_fts=138, messages_fts_config=1, messages_fts_content=138,"
                    + " messages_fts_data=23, messages_fts_docsize=138, messages_fts_idx=21, messages_fts_trigram=138,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=138, messages_fts_trigram_data=58,"
                    + " messages_fts_trigram_docsize=138, messages_fts_trigram_idx=56, schema_version=1, sessions=43,"
                    + " sqlite_sequence=1, state_meta=2",
            "4a0ff27d2fe849a1a429e8a58be72565fb718457e6d8ccd598fac94a5420b35f",
            "c586e52e2dd901ea7166b2df658ae7957cdc9ffa23010ad357940a1e2d663600"),
    V17("state-v17.db", 17, 136, 19, Tagging.NONE,
            "compression_locks=1, messages=140, messages_fts=140, messages_fts_config=1, messages_fts_content=140,"
                    + " messages_fts_data=26, messages_fts_docsize=140, messages_fts_idx=24, messages_fts_trigram=140,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=140, messages_fts_trigram_data=47,"
                    + " messages_fts_trigram_docsize=140, messages_fts_trigram_idx=45, schema_version=1, sessions=43,"
                    + " sqlite_sequence=1, state_meta=2",
            "8acb3021a0a123836ff1666127e28557c340abfec6c6a67e9a132b109eaad640",
            "b8be24782c233459a1e565b0c04351c812c5eb68ed4cdd1f0c8caa9532fd8d20"),
    V17_UPGRADED("state-v17-upgraded.db", 17, 91, 15, Tagging.NONE,
            "compression_locks=0, messages=97, messages_fts=97, messages_fts_config=1, messages_fts_content=97,"
                    + " messages_fts_data=17, messages_fts_docsize=97, messages_fts_idx=15, messages_fts_trigram=97,"
                    + " messages_fts_trigram_config=1, messages_fts_trigram_content=97, messages_fts_trigram_data=45,"
                    + " messages_fts_trigram_docsize=97, messages_fts_trigram_idx=43, schema_version=1, sessions=30,"
                    + " sqlite_sequence=1, state_meta=0",
            "2a1b6dc9ee57cbff3e376238e5788dfbddcda12e881c99e97b5e7def11f16ac9",
            "29f7d4d068077845a48cdaea7f48963bbf0b8ff32c1d478f73efa3fe497b086b");

    /** The files of the version 1-6 data set (MANIFEST.md), the ones a store kept at version 6 can adopt. */
    static final List<HermesFixture> UP_TO_VERSION_6 = List.of(V1, V2, V3_FOREIGN, V4, V5, V6);

    /** MANIFEST "Raw FTS5": the same answers in every fixture (message id and session id), before and after a migration. */
    static final Map<String, List<String>> RAW_FTS_ANSWERS = rawFtsAnswers();

    /**
     * A tool that appears in no content, only in tool rows' tool_name and a call's JSON: found once the file
     * indexes tool names and calls (version 11's layout), by both tables, in every fixture.
     */
    static final List<String> TOOL_ONLY_ANSWER = List.of("61 (20260313_113149_7a0ee5)", "62 (20260313_113149_7a0ee5)");

    final String fileName;
    final int version;
    final long sumMessageCount;
    final long sumToolCallCount;
    /** Sessions whose model_config the agent's version-16 step rewrote, with the text it left. */
    final Map<String, String> taggedModelConfigs;
    /** Every table's row count after the agent's v17 open (full-text tables included), "table=N, ..." as the manifests write them. */
    final String agentRowCounts;
    final String agentRowsDigest;
    final String agentFullTextDigest;

    HermesFixture(String fileName, int version, long sumMessageCount, long sumToolCallCount, Tagging tagging,
                  String agentRowCounts, String agentRowsDigest, String agentFullTextDigest) {
        this.fileName = fileName;
        this.version = version;
        this.sumMessageCount = sumMessageCount;
        this.sumToolCallCount = sumToolCallCount;
        this.taggedModelConfigs = tagging.modelConfigs;
        this.agentRowCounts = agentRowCounts;
        this.agentRowsDigest = agentRowsDigest;
        this.agentFullTextDigest = agentFullTextDigest;
    }

    Path copyInto(Path dir) {
        return Fixtures.copy(fileName, dir);
    }

    /** The file holds version 11's full-text layout already (inline tables over content, tool name and calls). */
    boolean hasInlineFullText() {
        return version >= 11;
    }

    /**
     * Whether the file already has what a changeset creates, so adoption records it as MARK_RAN.
     * Upstream files have every step up to their number, with the exceptions the manifests' column
     * lists show: columns that landed in a version's window after its bump commit are missing from a
     * file made at that commit, and the agent's "below 12" step is not run on a file at 12. The foreign
     * file says 3 but lacks the v3 column (title): only its number (the v3 schema-version step) counts.
     */
    boolean alreadyHas(String changeSetId, int changeSetVersion) {
        if (changeSetId.startsWith("windows-")) {
            return false; // hermes-state's own tables: no file the Python agent made has them
        }
        if (this == V3_FOREIGN) {
            return changeSetVersion <= 2 || changeSetId.equals("v3-schema-version");
        }
        Set<String> lacking = switch (this) {
            // handoff_* landed after 8d76d69d4 made 11
            case V11 -> Set.of("v11-sessions-handoff_state", "v11-sessions-handoff_platform", "v11-sessions-handoff_error");
            // cwd, the rewind flags and archived landed after a30480bd2 made 14
            case V14 -> Set.of("v14-sessions-cwd", "v14-messages-active", "v14-sessions-rewind_count",
                    "v14-idx-messages-session-active", "v14-sessions-archived");
            // compaction and the git workspace landed after d62979a6f made 16
            case V16 -> Set.of("v16-messages-compacted", "v16-sessions-git_branch", "v16-sessions-git_repo_root");
            default -> Set.of();
        };
        boolean beyondItsNumber = this == V12 && changeSetId.equals("v14-messages-active-backfill");
        return changeSetVersion <= version && !lacking.contains(changeSetId) || beyondItsNumber;
    }

    /**
     * The messages whose trigram index the agent's SQLite (3.40.1) built in a way this project's SQLite
     * (sqlite-jdbc 3.54) calls malformed: their content starts with the {@code '\x00json:'} prefix of
     * multimodal content, and SQLite 3.40 read the text only up to that NUL, so it indexed no trigram of
     * them, where 3.54 indexes the whole text. FTS5's 'integrity-check' of messages_fts_trigram (and
     * PRAGMA integrity_check, which runs it) fails on the agent's own file for that reason alone; the
     * agent's later opens keep that index (it has version 11's layout), and so does a migration.
     */
    Set<Long> trigramRowsOutOfStep() {
        return switch (this) {
            case V12, V14, V16 -> Set.of(133L, 135L);
            case V17 -> Set.of(135L, 137L);
            default -> Set.of();
        };
    }

    /** Objects of another application an adopted file keeps. */
    Set<String> foreignObjects() {
        return this == V3_FOREIGN
                ? Set.of("table invocation_log", "index idx_invocation_log_created", "index idx_invocation_log_source",
                        "index idx_invocation_log_tool", "index sqlite_autoindex_invocation_log_1")
                : Set.of();
    }

    /** MANIFEST.md "row counts" of every table of a version 1-6 file, as the agent made it. */
    Map<String, Long> rowCounts() {
        if (!UP_TO_VERSION_6.contains(this)) {
            throw new IllegalStateException(this + " is not a file of the version 1-6 data set");
        }
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

    /** {@link #agentRowCounts} as a map. */
    Map<String, Long> agentRowCountMap() {
        Map<String, Long> counts = new TreeMap<>();
        for (String entry : agentRowCounts.split(", ")) {
            String[] nameAndCount = entry.split("=");
            counts.put(nameAndCount[0], Long.parseLong(nameAndCount[1]));
        }
        return counts;
    }

    /** What the agent's version-16 step tagged in each data set. */
    private enum Tagging {
        /** Nothing: the file was at 16 or later, so the step did not run. */
        NONE(Map.of()),
        /** The untitled roots of the data set with a tool message and no children. */
        DATA_SET(orphaned("20260312_091723_9a58a3", "20260312_165644_c7084c", "20260313_113149_7a0ee5",
                "20260313_134515_754d10", "20260313_155941_d69e91", "20260314_082020_73b220")),
        /** Versions 1-3 have no titles: three more roots count as untitled. */
        UNTITLED_ROOTS(orphaned("20260311_080000_2133b2", "20260311_112139_dc5519", "20260312_091723_9a58a3",
                "20260312_144218_15c4f9", "20260312_165644_c7084c", "20260313_113149_7a0ee5", "20260313_134515_754d10",
                "20260313_155941_d69e91", "20260314_082020_73b220")),
        /**
         * The data set's six, the feature block's subagent child (tagged with its parent's id) and its two
         * untitled roots with a tool message whose model_config was NULL.
         */
        FEATURE_BLOCK(featureBlock());

        final Map<String, String> modelConfigs;

        Tagging(Map<String, String> modelConfigs) {
            this.modelConfigs = modelConfigs;
        }

        /** The data set's model_config with the marker, as json_set writes it (no spaces). */
        private static Map<String, String> orphaned(String... sessionIds) {
            Map<String, String> configs = new TreeMap<>();
            Arrays.stream(sessionIds).forEach(id -> configs.put(id, "{\"temperature\":0.7,\"max_tokens\":8192,"
                    + "\"reasoning_effort\":\"medium\",\"_delegate_from\":\"__orphaned__\"}"));
            return Map.copyOf(configs);
        }

        private static Map<String, String> featureBlock() {
            Map<String, String> configs = new TreeMap<>(orphaned("20260312_091723_9a58a3", "20260312_165644_c7084c",
                    "20260313_113149_7a0ee5", "20260313_134515_754d10", "20260313_155941_d69e91", "20260314_082020_73b220"));
            configs.put("20260401_083500_e4c1a1", "{\"temperature\":0.3,\"max_tokens\":4096,\"reasoning_effort\":\"high\","
                    + "\"_delegate_from\":\"20260401_083000_e4c1a0\"}");
            configs.put("20260402_110000_e4c1f9", "{\"_delegate_from\":\"__orphaned__\"}");
            configs.put("20260402_140000_e4c22c", "{\"_delegate_from\":\"__orphaned__\"}");
            return Map.copyOf(configs);
        }
    }

    /** What the agent's open left in every file of the version 1-6 data set (the foreign file has its own table on top). */
    private static final class DataSet {
        static final String COUNTS_V1_TO_V6 = "compression_locks=0, messages=95, messages_fts=95, messages_fts_config=1,"
                + " messages_fts_content=95, messages_fts_data=13, messages_fts_docsize=95, messages_fts_idx=11,"
                + " messages_fts_trigram=95, messages_fts_trigram_config=1, messages_fts_trigram_content=95,"
                + " messages_fts_trigram_data=41, messages_fts_trigram_docsize=95, messages_fts_trigram_idx=39,"
                + " schema_version=1, sessions=30, sqlite_sequence=1, state_meta=0";
        /** The same index in all six: the same 95 messages, indexed anew by version 11's backfill. */
        static final String FULL_TEXT_V1_TO_V6 = "b07818daa4d7fa1520e51689d663d85c7d693137d5792fce7b1b6d8fd14fb22e";
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
