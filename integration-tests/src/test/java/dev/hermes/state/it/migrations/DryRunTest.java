package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A dry run says what a migration would do and writes nothing, not even a new file or folder. */
class DryRunTest {
    @TempDir
    Path dir;

    @Test
    void onAnOldFileReturnsTheChangesAndLeavesItUnchanged() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        String sha = Fixtures.sha256(db);

        MigrationResult result = Migrator.create().dryRun(db);

        assertTrue(result.dryRun());
        assertFalse(result.fastPath());
        assertFalse(result.created());
        assertEquals(2, result.fromVersion());
        assertEquals(2, result.toVersion(), "nothing changed");
        assertEquals(14, result.adopted().size());
        assertEquals(74, result.executed().size());
        MigrationResult.AppliedChange title = result.executed().get(0);
        assertEquals("v3-sessions-title", title.id());
        assertEquals(3, title.version());
        assertEquals("ALTER TABLE sessions ADD COLUMN title TEXT", title.sql());
        MigrationResult.AppliedChange six = result.executed().stream().filter(c -> c.id().equals("v6-schema-version"))
                .findFirst().orElseThrow();
        assertEquals("UPDATE schema_version SET version = 6", six.sql());
        MigrationResult.AppliedChange last = result.executed().get(73);
        assertEquals("v17-schema-version", last.id());
        assertEquals(17, last.version());
        assertEquals("UPDATE schema_version SET version = 17", last.sql());
        assertEquals("DROP TABLE IF EXISTS messages_fts", result.executed().stream()
                .filter(c -> c.id().equals("v11-drop-table-messages-fts")).findFirst().orElseThrow().sql());

        assertEquals(sha, Fixtures.sha256(db));
        assertEquals(List.of(db), list(dir), "no journal or WAL left beside it");
        assertEquals("delete", SqliteFiles.single(db, "PRAGMA journal_mode"));
        assertEquals(0, SqliteFiles.single(db, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'DATABASECHANGELOG%'"));
        // and the real migration then does exactly what the dry run announced
        assertEquals(result.changes().stream().map(MigrationResult.AppliedChange::id).toList(),
                Migrator.create().migrate(db).changes().stream().map(MigrationResult.AppliedChange::id).toList());
    }

    @Test
    void onAMissingFileCreatesNothing() throws Exception {
        Path db = dir.resolve("not/yet/state.db");
        MigrationResult result = Migrator.create().dryRun(db);
        assertTrue(result.dryRun());
        assertTrue(result.created());
        assertEquals(88, result.executed().size());
        assertEquals(36, Migrator.create().toVersion(6).dryRun(db).executed().size());
        assertFalse(Files.exists(dir.resolve("not")), "not even the folder");
    }

    @Test
    void keptAtSixOnAnOldFileAnnouncesOnlyTheStepsUpToSix() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        String sha = Fixtures.sha256(db);
        MigrationResult result = Migrator.create().toVersion(6).dryRun(db);
        assertEquals(14, result.adopted().size());
        assertEquals(22, result.executed().size());
        assertEquals("UPDATE schema_version SET version = 6", result.executed().get(19).sql());
        assertTrue(result.changes().stream().allMatch(c -> c.version() <= 6), result.changes().toString());
        assertEquals(sha, Fixtures.sha256(db));
    }

    @Test
    void onAnUpToDateFileIsTheFastPath() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        String sha = Fixtures.sha256(db);
        MigrationResult result = Migrator.create().dryRun(db);
        assertTrue(result.fastPath());
        assertTrue(result.dryRun());
        assertEquals(List.of(), result.changes());
        assertEquals(sha, Fixtures.sha256(db));
    }

    @Test
    void theCommandPrintsTheSqlItWouldRun() throws Exception {
        Path db = HermesFixture.V4.copyInto(dir);
        String sha = Fixtures.sha256(db);
        ProcessResult result = MigrateJar.run("--db", db.toString(), "--dry-run");
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        String out = result.stdout();
        assertTrue(out.startsWith("-- v1-schema-version-table (already present: recorded only)\n"), out);
        assertTrue(out.contains("-- v5-sessions-cache_read_tokens\nALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER DEFAULT 0;\n"), out);
        assertTrue(out.contains("-- v6-schema-version\nUPDATE schema_version SET version = 6;\n"), out);
        assertTrue(out.contains("-- v11-backfill-messages-fts\nINSERT INTO messages_fts(rowid, content) SELECT id,"
                + " COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;\n"), out);
        assertTrue(out.contains("-- v17-schema-version\nUPDATE schema_version SET version = 17;\n"), out);
        assertTrue(out.endsWith(db + ": dry run, nothing written; schema version 4 -> 17 (70 changesets to run, 18 already present)\n"), out);
        assertEquals(sha, Fixtures.sha256(db));

        ProcessResult kept = MigrateJar.run("--db", db.toString(), "--dry-run", "--to", "6");
        assertEquals(0, kept.exitCode(), kept.toString());
        assertFalse(kept.stdout().contains("-- v7-"), kept.stdout());
        assertTrue(kept.stdout().endsWith(db + ": dry run, nothing written; schema version 4 -> 6 (18 changesets to run,"
                + " 18 already present)\n"), kept.stdout());
        assertEquals(sha, Fixtures.sha256(db));

        Path missing = dir.resolve("new/state.db");
        ProcessResult fresh = MigrateJar.run("--db", missing.toString(), "--dry-run");
        assertEquals(0, fresh.exitCode(), fresh.toString());
        assertTrue(fresh.stdout().contains("CREATE VIRTUAL TABLE messages_fts USING fts5("), fresh.stdout());
        assertTrue(fresh.stdout().contains("CREATE VIRTUAL TABLE messages_fts_trigram USING fts5("), fresh.stdout());
        assertTrue(fresh.stdout().endsWith(missing + ": dry run, nothing written; would be created at schema version 17"
                + " (88 changesets to run, 0 already present)\n"), fresh.stdout());
        assertFalse(Files.exists(missing.getParent()));
    }

    private static List<Path> list(Path folder) throws Exception {
        try (var listing = Files.list(folder)) {
            return listing.toList();
        }
    }
}
