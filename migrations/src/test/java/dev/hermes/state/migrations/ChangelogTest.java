package dev.hermes.state.migrations;

import liquibase.Scope;
import liquibase.change.Change;
import liquibase.change.core.RawSQLChange;
import liquibase.changelog.ChangeLogParameters;
import liquibase.changelog.ChangeSet;
import liquibase.changelog.DatabaseChangeLog;
import liquibase.database.Database;
import liquibase.database.core.PostgresDatabase;
import liquibase.database.core.SQLiteDatabase;
import liquibase.logging.core.NoOpLogService;
import liquibase.parser.ChangeLogParserFactory;
import liquibase.precondition.core.PreconditionContainer;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fast path trusts {@link Changelog}, a regex reading of the changelog files, to know which
 * changesets an up-to-date file has recorded. These tests hold it to what Liquibase itself parses.
 */
class ChangelogTest {

    /** Versions 7 to 17, as the agent's own migrations and column additions bring a file to 17, in order. */
    private static final Map<Integer, List<String>> CHANGESETS_7_TO_17 = changeSets7To17();

    @Test
    void listsEveryChangesetOfVersionsOneToSixThenHermesStatesOwnTablesThenVersionsSevenToSeventeen() {
        List<Changelog.ChangeSetRef> changeSets = Changelog.changeSets();
        assertEquals(88, changeSets.size());
        assertEquals(17, Changelog.latestVersion());
        assertEquals(Migrator.LATEST_VERSION, Changelog.latestVersion());
        assertEquals(6, Migrator.KEPT_VERSION);
        int previous = 1;
        for (Changelog.ChangeSetRef changeSet : changeSets) {
            if (changeSet.author().equals("hermes-state")) {
                continue;
            }
            assertTrue(changeSet.version() >= previous, "versions ascend: " + changeSet);
            previous = changeSet.version();
            assertEquals("hermes", changeSet.author());
            assertEquals("hermes-state/v" + changeSet.version() + ".sql", changeSet.logicalFile());
            assertTrue(changeSet.id().startsWith("v" + changeSet.version() + "-"), changeSet.id());
        }
        // not a schema version: they belong to version 6, which they come after, and leave schema_version alone
        assertEquals(List.of(new Changelog.ChangeSetRef(6, "hermes-state", "windows-window-table", "hermes-state/windows.sql"),
                        new Changelog.ChangeSetRef(6, "hermes-state", "windows-window-message-table", "hermes-state/windows.sql")),
                changeSets.subList(34, 36));
        assertEquals(changeSets.size(), changeSets.stream().map(Changelog.ChangeSetRef::id).distinct().count(),
                "changeset ids are unique");
        // steps 2..6 set schema_version to N: it is the last changeset of each of those versions
        for (int version = 2; version <= 6; version++) {
            List<String> ofVersion = hermesIds(changeSets, version);
            assertEquals("v" + version + "-schema-version", ofVersion.get(ofVersion.size() - 1));
        }
        assertEquals("v1-schema-version-row", hermesIds(changeSets, 1).get(hermesIds(changeSets, 1).size() - 1));
        assertEquals(List.of(12, 2, 2, 2, 12, 4), List.of(1, 2, 3, 4, 5, 6).stream()
                .map(version -> hermesIds(changeSets, version).size()).toList());
    }

    /**
     * From version 7 on the agent adds what a file lacks whatever its number, and bumps the number once
     * at the end: no changeset of 7 to 16 touches schema_version, version 10 has none at all (its
     * trigram index comes in version 11's form), and the last changeset of all sets 17.
     */
    @Test
    void versionsSevenToSeventeenHaveTheirChangesetsInOrderAndOneVersionBumpAtTheEnd() throws Exception {
        List<Changelog.ChangeSetRef> changeSets = Changelog.changeSets();
        assertEquals(CHANGESETS_7_TO_17.values().stream().flatMap(List::stream).toList(),
                changeSets.subList(36, 88).stream().map(Changelog.ChangeSetRef::id).toList());
        for (Map.Entry<Integer, List<String>> version : CHANGESETS_7_TO_17.entrySet()) {
            assertEquals(version.getValue(), hermesIds(changeSets, version.getKey()), "version " + version.getKey());
        }
        assertEquals(List.of(), hermesIds(changeSets, 10));
        assertEquals(new Changelog.ChangeSetRef(17, "hermes", "v17-schema-version", "hermes-state/v17.sql"),
                changeSets.get(changeSets.size() - 1));

        Map<String, String> sqlById = new LinkedHashMap<>();
        for (ChangeSet changeSet : parseWithLiquibase()) {
            sqlById.put(changeSet.getId(), ((RawSQLChange) changeSet.getChanges().get(0)).getSql().strip());
        }
        List<String> touchingVersion = sqlById.entrySet().stream()
                .filter(entry -> entry.getValue().contains("UPDATE schema_version"))
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of("v2-schema-version", "v3-schema-version", "v4-schema-version", "v5-schema-version",
                "v6-schema-version", "v17-schema-version"), touchingVersion);
        assertEquals("UPDATE schema_version SET version = 17", sqlById.get("v17-schema-version"));
        assertEquals("INSERT INTO schema_version (version) VALUES (1)", sqlById.get("v1-schema-version-row"));
    }

    /** The store kept at 6 runs the first part of the changelog, hermes-state's own tables included, and nothing of 7 or later. */
    @Test
    void theChangelogOfVersionSixIsTheFirstThirtySixChangesets() throws Exception {
        List<Changelog.ChangeSetRef> all = Changelog.changeSets();
        assertEquals(all.subList(0, 36), Changelog.changeSets(6));
        assertEquals(all, Changelog.changeSets(17));
        assertEquals(Changelog.MASTER_V6, Changelog.master(6));
        assertEquals(Changelog.MASTER, Changelog.master(17));
        assertEquals(Changelog.changeSets(6).stream().map(c -> c.author() + ":" + c.id() + ":" + c.logicalFile()).toList(),
                parse(Changelog.MASTER_V6, new SQLiteDatabase()).stream()
                        .map(c -> c.getAuthor() + ":" + c.getId() + ":" + c.getFilePath()).toList());
    }

    @Test
    void agreesWithLiquibasesOwnParser() throws Exception {
        List<ChangeSet> parsed = parseWithLiquibase();
        List<String> ours = new ArrayList<>();
        for (Changelog.ChangeSetRef changeSet : Changelog.changeSets()) {
            ours.add(changeSet.author() + ":" + changeSet.id() + ":" + changeSet.logicalFile());
        }
        List<String> liquibases = new ArrayList<>();
        for (ChangeSet changeSet : parsed) {
            liquibases.add(changeSet.getAuthor() + ":" + changeSet.getId() + ":" + changeSet.getFilePath());
        }
        assertEquals(liquibases, ours);
    }

    /**
     * With splitStatements:false Liquibase runs only the first statement of a changeset and still
     * records it as executed; every changeset must therefore hold exactly one statement, guarded by
     * a MARK_RAN precondition on what the file really contains.
     */
    @Test
    void everyChangesetIsOneRawStatementGuardedByAMarkRanPrecondition() throws Exception {
        Set<String> statementKinds = new HashSet<>();
        for (ChangeSet changeSet : parseWithLiquibase()) {
            List<Change> changes = changeSet.getChanges();
            assertEquals(1, changes.size(), changeSet.getId());
            RawSQLChange raw = (RawSQLChange) changes.get(0);
            assertFalse(raw.isSplitStatements(), changeSet.getId());
            String sql = raw.getSql().strip();
            String withoutTriggerBody = sql.startsWith("CREATE TRIGGER") ? sql.substring(0, sql.indexOf(" BEGIN")) : sql;
            assertFalse(withoutTriggerBody.contains(";"), "one statement in " + changeSet.getId() + ": " + sql);
            statementKinds.add(sql.substring(0, sql.indexOf(' ', sql.indexOf(' ') + 1)));
            PreconditionContainer preconditions = changeSet.getPreconditions();
            assertEquals(PreconditionContainer.FailOption.MARK_RAN, preconditions.getOnFail(), changeSet.getId());
            assertEquals(1, preconditions.getNestedPreconditions().size(), changeSet.getId());
        }
        // raw SQL only: no structural change type (they rebuild SQLite tables and drop the triggers)
        // version 11 drops the full-text tables and triggers it re-lays out; 14 and 16 fix rows the agent's own steps fix
        assertEquals(Set.of("CREATE TABLE", "CREATE INDEX", "CREATE UNIQUE", "CREATE VIRTUAL", "CREATE TRIGGER",
                "INSERT INTO", "ALTER TABLE", "UPDATE schema_version", "DROP TRIGGER", "DROP TABLE", "UPDATE messages",
                "UPDATE sessions"), statementKinds);
    }

    /**
     * PostgreSQL's changelog has SQLite's versions and changeset ids, except that FTS5's tables and
     * triggers are replaced by the search columns, their functions and indexes, and that version 16's
     * JSON edits are done by functions of the store's own (PostgreSQL has no json_set that keeps the text).
     * Its first part, through hermes-state's own tables, is the store kept at version 6.
     */
    @Test
    void postgresqlHasTheSameVersionsAndChangesetsWithItsOwnSearch() throws Exception {
        List<Changelog.ChangeSetRef> changeSets = Changelog.postgresqlChangeSets();
        List<String> sqliteOnly = List.of("v1-messages-fts", "v1-trigger-fts-insert", "v1-trigger-fts-delete",
                "v1-trigger-fts-update");
        List<String> postgresqlOnly = List.of("v1-function-messages-content-tsv", "v1-messages-content_tsv",
                "v1-idx-messages-content-tsv", "v1-extension-pg-trgm", "v1-idx-messages-content-trgm");
        // version 6's search as FTS5 finds: unicode61's tokens, the CJK substring index, sessions' rowid
        List<String> postgresqlOnlyV6 = List.of("v6-search-function-messages-search-tokens",
                "v6-search-function-messages-content-tsv", "v6-search-function-messages-search-query",
                "v6-search-functions-search-path", "v6-search-recompute-content-tsv", "v6-search-function-messages-cjk-grams",
                "v6-messages-content_grams", "v6-idx-messages-content-grams", "v6-drop-idx-messages-content-trgm",
                "v6-sessions-rowid", "v6-idx-sessions-rowid");
        // version 11's search over content, tool name and tool calls: the two columns computed anew
        List<String> postgresqlOnlyV11 = List.of("v11-search-messages-columns", "v11-search-idx-messages-content-tsv",
                "v11-search-idx-messages-content-grams");
        List<String> postgresqlOnlyV16 = List.of("v16-function-sqlite-json-tokens", "v16-function-sqlite-json-find",
                "v16-function-sqlite-json-member", "v16-function-sqlite-json-set", "v16-function-sqlite-json-valid",
                "v16-functions-search-path");
        List<String> expected = new ArrayList<>();
        for (Changelog.ChangeSetRef changeSet : Changelog.changeSets()) {
            String id = changeSet.id();
            if (id.equals("v1-messages-fts")) {
                expected.addAll(postgresqlOnly);
            } else if (id.equals("windows-window-table")) {
                // ... at the end of version 6, before hermes-state's own tables (windows), as in both
                expected.addAll(postgresqlOnlyV6);
                expected.add(id);
            } else if (changeSet.version() == 11 && !id.startsWith("v11-sessions-")) {
                if (expected.stream().noneMatch(postgresqlOnlyV11::contains)) {
                    expected.addAll(postgresqlOnlyV11);
                }
            } else if (id.equals("v16-tag-delegate-children")) {
                expected.addAll(postgresqlOnlyV16);
                expected.add(id);
            } else if (!sqliteOnly.contains(id)) {
                expected.add(id);
            }
        }
        assertEquals(expected, changeSets.stream().map(Changelog.ChangeSetRef::id).toList());
        assertEquals(Migrator.LATEST_VERSION, changeSets.get(changeSets.size() - 1).version());
        assertEquals("v17-schema-version", changeSets.get(changeSets.size() - 1).id());
        Set<String> gated = Set.of("v1-extension-pg-trgm", "v14-messages-active-backfill",
                "v16-tag-delegate-children", "v16-tag-orphaned-delegates");
        for (Changelog.ChangeSetRef changeSet : changeSets) {
            boolean own = changeSet.id().startsWith("windows-");
            assertEquals(own ? "hermes-state" : "hermes", changeSet.author());
            assertEquals("hermes-state/postgresql/" + (own ? "windows" : "v" + changeSet.version()) + ".sql",
                    changeSet.logicalFile());
            assertTrue(own || changeSet.id().startsWith("v" + changeSet.version() + "-"), changeSet.id());
        }

        List<ChangeSet> parsed = parse(Changelog.POSTGRESQL_MASTER, new PostgresDatabase());
        assertEquals(changeSets.stream().map(c -> c.author() + ":" + c.id() + ":" + c.logicalFile()).toList(),
                parsed.stream().map(c -> c.getAuthor() + ":" + c.getId() + ":" + c.getFilePath()).toList());
        for (ChangeSet changeSet : parsed) {
            assertEquals(Set.of("postgresql"), changeSet.getDbmsSet(), changeSet.getId());
            assertEquals(1, changeSet.getChanges().size(), changeSet.getId());
            RawSQLChange raw = (RawSQLChange) changeSet.getChanges().get(0);
            assertFalse(raw.isSplitStatements(), changeSet.getId());
            // one statement: no semicolon outside comments and $$-quoted bodies
            String outsideBodies = raw.getSql().replaceAll("(?m)^\\s*--.*$", "")
                    .replaceAll("(?s)\\$\\$.*?\\$\\$", "\\$\\$");
            assertFalse(outsideBodies.contains(";"), changeSet.getId());
            int preconditions = changeSet.getPreconditions() == null ? 0
                    : changeSet.getPreconditions().getNestedPreconditions().size();
            assertEquals(gated.contains(changeSet.getId()) ? 1 : 0, preconditions, changeSet.getId());
            if (preconditions > 0) {
                assertEquals(PreconditionContainer.FailOption.MARK_RAN, changeSet.getPreconditions().getOnFail());
            }
        }

        // the store kept at 6: everything through hermes-state's own tables, from its own master changelog
        List<Changelog.ChangeSetRef> kept = Changelog.postgresqlChangeSets(Changelog.KEPT_VERSION);
        int ownTables = expected.indexOf("windows-window-message-table") + 1;
        assertEquals(changeSets.subList(0, ownTables), kept);
        assertEquals(Changelog.POSTGRESQL_MASTER_V6, Changelog.postgresqlMaster(6));
        assertEquals(Changelog.POSTGRESQL_MASTER, Changelog.postgresqlMaster(Migrator.LATEST_VERSION));
        assertEquals(changeSets, Changelog.postgresqlChangeSets(Migrator.LATEST_VERSION));
        assertEquals(kept.stream().map(c -> c.author() + ":" + c.id() + ":" + c.logicalFile()).toList(),
                parse(Changelog.POSTGRESQL_MASTER_V6, new PostgresDatabase()).stream()
                        .map(c -> c.getAuthor() + ":" + c.getId() + ":" + c.getFilePath()).toList());
    }

    private static List<String> hermesIds(List<Changelog.ChangeSetRef> changeSets, int version) {
        return changeSets.stream().filter(c -> c.version() == version && c.author().equals("hermes"))
                .map(Changelog.ChangeSetRef::id).toList();
    }

    private static Map<Integer, List<String>> changeSets7To17() {
        Map<Integer, List<String>> versions = new LinkedHashMap<>();
        versions.put(7, List.of("v7-messages-reasoning_content", "v7-state-meta-table"));
        versions.put(8, List.of("v8-sessions-api_call_count"));
        versions.put(9, List.of("v9-messages-codex_message_items"));
        versions.put(10, List.of());
        versions.put(11, List.of("v11-drop-trigger-messages-fts-insert", "v11-drop-trigger-messages-fts-delete",
                "v11-drop-trigger-messages-fts-update", "v11-drop-trigger-messages-fts-trigram-insert",
                "v11-drop-trigger-messages-fts-trigram-delete", "v11-drop-trigger-messages-fts-trigram-update",
                "v11-drop-table-messages-fts", "v11-drop-table-messages-fts-trigram", "v11-messages-fts",
                "v11-messages-fts-trigram", "v11-trigger-messages-fts-insert", "v11-trigger-messages-fts-delete",
                "v11-trigger-messages-fts-update", "v11-trigger-messages-fts-trigram-insert",
                "v11-trigger-messages-fts-trigram-delete", "v11-trigger-messages-fts-trigram-update",
                "v11-backfill-messages-fts", "v11-backfill-messages-fts-trigram", "v11-sessions-handoff_state",
                "v11-sessions-handoff_platform", "v11-sessions-handoff_error"));
        versions.put(12, List.of("v12-messages-platform_message_id", "v12-idx-messages-platform-msg-id"));
        versions.put(13, List.of("v13-messages-observed"));
        versions.put(14, List.of("v14-compression-locks-table", "v14-idx-compression-locks-expires", "v14-sessions-cwd",
                "v14-messages-active", "v14-sessions-rewind_count", "v14-idx-messages-session-active",
                "v14-sessions-archived", "v14-messages-active-backfill"));
        versions.put(15, List.of("v15-idx-sessions-source-id"));
        versions.put(16, List.of("v16-messages-compacted", "v16-sessions-git_branch", "v16-sessions-git_repo_root",
                "v16-tag-delegate-children", "v16-tag-orphaned-delegates"));
        versions.put(17, List.of("v17-sessions-session_key", "v17-sessions-chat_id", "v17-sessions-chat_type",
                "v17-sessions-thread_id", "v17-idx-sessions-session-key", "v17-idx-sessions-gateway-peer",
                "v17-sessions-compression_failure_cooldown_until", "v17-sessions-compression_failure_error",
                "v17-idx-sessions-handoff-state", "v17-schema-version"));
        return versions;
    }

    private static List<ChangeSet> parseWithLiquibase() throws Exception {
        return parse(Changelog.MASTER, new SQLiteDatabase());
    }

    private static List<ChangeSet> parse(String master, Database database) throws Exception {
        List<ChangeSet> result = new ArrayList<>();
        Scope.child(Map.of(Scope.Attr.logService.name(), new NoOpLogService()), () -> {
            ClassLoaderResourceAccessor resources = new ClassLoaderResourceAccessor(ChangelogTest.class.getClassLoader());
            DatabaseChangeLog changeLog = ChangeLogParserFactory.getInstance().getParser(master, resources)
                    .parse(master, new ChangeLogParameters(database), resources);
            result.addAll(changeLog.getChangeSets());
        });
        return result;
    }
}
