package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockServiceFactory;

import java.nio.file.Path;
import java.sql.Connection;

/**
 * A plain Liquibase run outside hermes-state's one-transaction scheme (a Liquibase command line, an
 * older tool) that takes Liquibase's lock, as every update does first, and is then killed by the
 * test: it leaves the committed lock row a killed process really leaves.
 */
public final class KilledLiquibaseRunChild {
    private KilledLiquibaseRunChild() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = SqliteFiles.readWrite(Path.of(args[0]));
        Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
        LockServiceFactory.getInstance().getLockService(database).acquireLock();
        System.out.println("locked");
        System.out.flush();
        Thread.sleep(600_000);
    }
}
