package dev.hermes.state.migrations;

import java.nio.file.Path;

/**
 * Measurement harness, not shipped: what opening an up-to-date file would cost without the fast
 * path. Runs Liquibase's full update check on the file (rolled back) and prints the same summary
 * line as the command. Used by {@code migrations/measure-cold-start.sh}:
 * {@code java -cp migrations/target/hermes-state-migrate.jar:migrations/target/test-classes
 * dev.hermes.state.migrations.LiquibaseCheckMain PATH}.
 */
public final class LiquibaseCheckMain {
    private LiquibaseCheckMain() {
    }

    public static void main(String[] args) {
        Path db = Path.of(args[0]);
        MigrationResult result = Migrator.create().checkWithLiquibase(db);
        System.out.println(db + ": Liquibase checked, " + result.executed().size() + " changesets to run, fast path "
                + (result.fastPath() ? "taken" : "not taken"));
    }
}
