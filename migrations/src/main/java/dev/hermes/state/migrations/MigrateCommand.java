package dev.hermes.state.migrations;

import dev.hermes.state.HermesStateException;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The migration-only run, for CI pipelines that prepare a database without starting an application:
 * {@code java -jar hermes-state-migrate.jar --db PATH [--dry-run]}. Exit code 0 on success, 1 when
 * the file is refused (with one line on stderr), 2 on bad usage. The build uses it too, to create
 * the database jOOQ generates its classes from.
 */
public final class MigrateCommand {
    private static final String USAGE = "usage: hermes-state-migrate --db PATH [--dry-run]";

    private MigrateCommand() {
    }

    public static void main(String[] args) {
        int exitCode = run(args, System.out, System.err);
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path db = null;
        boolean dryRun = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--db" -> {
                    if (i + 1 >= args.length) {
                        err.println("--db needs a PATH\n" + USAGE);
                        return 2;
                    }
                    db = Path.of(args[++i]);
                }
                case "--dry-run" -> dryRun = true;
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                default -> {
                    err.println("unknown argument: " + args[i] + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (db == null) {
            err.println(USAGE);
            return 2;
        }
        try {
            Migrator migrator = Migrator.create();
            MigrationResult result = dryRun ? migrator.dryRun(db) : migrator.migrate(db);
            if (dryRun) {
                for (MigrationResult.AppliedChange change : result.changes()) {
                    out.println("-- " + change.id() + (change.executed() ? "" : " (already present: recorded only)"));
                    if (change.executed()) {
                        out.println(change.sql() + ";");
                    }
                }
            }
            out.println(describe(db, result));
            return 0;
        } catch (HermesStateException e) {
            err.println("hermes-state-migrate: " + e.getMessage());
            return 1;
        }
    }

    static String describe(Path db, MigrationResult result) {
        if (result.fastPath()) {
            return db + ": up to date at schema version " + result.toVersion();
        }
        int target = result.dryRun() ? Migrator.LATEST_VERSION : result.toVersion();
        String change = result.created()
                ? (result.dryRun() ? "would be created" : "created") + " at schema version " + target
                : "schema version " + result.fromVersion() + " -> " + target;
        return db + ": " + (result.dryRun() ? "dry run, nothing written; " : "") + change + " ("
                + result.executed().size() + " changesets " + (result.dryRun() ? "to run" : "run") + ", "
                + result.adopted().size() + " already present)";
    }
}
