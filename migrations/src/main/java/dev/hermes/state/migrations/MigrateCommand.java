package dev.hermes.state.migrations;

import dev.hermes.state.HermesStateException;

import java.io.PrintStream;

/**
 * The migration-only run, for CI pipelines that prepare a database without starting an application:
 * {@code java -jar hermes-state-migrate.jar --db PATH|URL [--schema NAME] [--to 6] [--dry-run]}, where a URL is
 * a PostgreSQL one ({@code postgresql://user:password@host:port/dbname}) and the schema defaults to
 * {@code hermes}; {@code --to 6} keeps the store at version 6 instead of the latest. Exit code 0 on success, 1 when the store is refused (with one line on stderr), 2 on
 * bad usage. Output names a PostgreSQL store without its password. The build uses it too, to create
 * the database jOOQ generates its classes from.
 */
public final class MigrateCommand {
    private static final String USAGE = "usage: hermes-state-migrate --db PATH|postgresql://USER:PASSWORD@HOST:PORT/DB"
            + " [--schema NAME] [--to " + Migrator.KEPT_VERSION + "|" + Migrator.LATEST_VERSION + "] [--dry-run]";

    private MigrateCommand() {
    }

    public static void main(String[] args) {
        int exitCode = run(args, System.out, System.err);
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String db = null;
        String schema = null;
        String to = null;
        boolean dryRun = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--db", "--schema", "--to" -> {
                    if (i + 1 >= args.length) {
                        err.println(args[i] + " needs a value\n" + USAGE);
                        return 2;
                    }
                    switch (args[i]) {
                        case "--db" -> db = args[++i];
                        case "--schema" -> schema = args[++i];
                        default -> to = args[++i];
                    }
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
        if (db == null || (schema != null && !StoreLocation.isUrl(db))) {
            err.println((db == null ? "" : "--schema is for a PostgreSQL URL\n") + USAGE);
            return 2;
        }
        int version = Migrator.DEFAULT_VERSION;
        if (to != null) {
            try {
                version = Integer.parseInt(to.strip());
                Migrator.checkTarget(version);
            } catch (NumberFormatException | HermesStateException e) {
                err.println("--to takes " + Migrator.KEPT_VERSION + " or " + Migrator.LATEST_VERSION + ", not " + to + "\n" + USAGE);
                return 2;
            }
        }
        try {
            Migrator migrator = Migrator.create().toVersion(version);
            StoreLocation location = StoreLocation.parse(db, schema);
            MigrationResult result = dryRun ? migrator.dryRun(location) : migrator.migrate(location);
            if (dryRun) {
                for (MigrationResult.AppliedChange change : result.changes()) {
                    out.println("-- " + change.id() + (change.executed() ? "" : " (already present: recorded only)"));
                    if (change.executed()) {
                        out.println(change.sql() + ";");
                    }
                }
            }
            out.println(describe(location.toString(), result, version));
            return 0;
        } catch (HermesStateException e) {
            err.println("hermes-state-migrate: " + e.getMessage());
            return 1;
        }
    }

    static String describe(String db, MigrationResult result, int version) {
        if (result.fastPath()) {
            return db + ": up to date at schema version " + result.toVersion();
        }
        int target = result.dryRun() ? version : result.toVersion();
        String change = result.created()
                ? (result.dryRun() ? "would be created" : "created") + " at schema version " + target
                : "schema version " + result.fromVersion() + " -> " + target;
        return db + ": " + (result.dryRun() ? "dry run, nothing written; " : "") + change + " ("
                + result.executed().size() + " changesets " + (result.dryRun() ? "to run" : "run") + ", "
                + result.adopted().size() + " already present)";
    }
}
