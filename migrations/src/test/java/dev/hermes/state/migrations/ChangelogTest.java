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

    @Test
    void listsEveryChangesetOfVersionsOneToSixInOrderThenHermesStatesOwnTables() {
        List<Changelog.ChangeSetRef> changeSets = Changelog.changeSets();
        assertEquals(36, changeSets.size());
        assertEquals(6, Changelog.latestVersion());
        assertEquals(Migrator.LATEST_VERSION, Changelog.latestVersion());
        int previous = 1;
        for (Changelog.ChangeSetRef changeSet : changeSets.subList(0, 34)) {
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
        // step N sets schema_version to N: it is the last changeset of each version
        for (int version = 2; version <= 6; version++) {
            int v = version;
            List<Changelog.ChangeSetRef> ofVersion = changeSets.stream()
                    .filter(c -> c.version() == v && c.author().equals("hermes")).toList();
            assertEquals("v" + v + "-schema-version", ofVersion.get(ofVersion.size() - 1).id());
        }
        assertEquals("v1-schema-version-row", changeSets.stream().filter(c -> c.version() == 1)
                .reduce((first, second) -> second).orElseThrow().id());
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
        assertEquals(Set.of("CREATE TABLE", "CREATE INDEX", "CREATE UNIQUE", "CREATE VIRTUAL", "CREATE TRIGGER",
                "INSERT INTO", "ALTER TABLE", "UPDATE schema_version"), statementKinds);
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
                "v16-function-sqlite-json-member", "v16-function-sqlite-json-set", "v16-functions-search-path",
                "v16-check-model-config");
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
        Set<String> gated = Set.of("v1-extension-pg-trgm", "v14-messages-active-backfill", "v16-check-model-config",
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
