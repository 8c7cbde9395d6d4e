package dev.hermes.state.it.migrations;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The version-17 expectations written into {@link ExpectedSchema} are the agent's own files: its fresh
 * state-v17.db and its upgrade of state-v6.db hold exactly those objects, columns and SQL, untouched by
 * hermes-state (so every other test holds a migrated file to what the agent itself writes).
 */
class ExpectedSchemaTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = HermesFixture.class, names = {"V17", "V17_UPGRADED"})
    void theVersionSeventeenSchemaIsTheAgentsOwn(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        ExpectedSchema.assertVersion17(db, Set.of(), false);
        assertEquals(ExpectedSchema.V17_TABLES.keySet().size() + 12 + 2 + 10 + 1 + 6 + 3, SqliteDb.master(db).size(),
                "5 tables, 12 named indexes, 2 full-text tables with 10 shadow tables, sqlite_sequence, 6 triggers,"
                        + " 3 automatic indexes");
    }
}
