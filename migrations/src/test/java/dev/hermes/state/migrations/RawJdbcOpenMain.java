package dev.hermes.state.migrations;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Measurement harness, not shipped: the floor for any Java program that opens a state.db, plain
 * sqlite-jdbc opening the file and reading its version (loading sqlite-jdbc's native library is
 * most of it). Used by {@code migrations/measure-cold-start.sh}.
 */
public final class RawJdbcOpenMain {
    private RawJdbcOpenMain() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + args[0]);
             Statement statement = connection.createStatement();
             ResultSet version = statement.executeQuery("SELECT version FROM schema_version")) {
            version.next();
            System.out.println(args[0] + ": schema version " + version.getInt(1));
        }
    }
}
