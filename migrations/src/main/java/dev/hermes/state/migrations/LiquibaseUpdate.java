package dev.hermes.state.migrations;

import org.jspecify.annotations.Nullable;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.UpdateSummaryEnum;
import liquibase.change.core.RawSQLChange;
import liquibase.changelog.ChangeLogHistoryServiceFactory;
import liquibase.changelog.ChangeSet;
import liquibase.changelog.DatabaseChangeLog;
import liquibase.changelog.visitor.AbstractChangeExecListener;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockServiceFactory;
import liquibase.logging.core.NoOpLogService;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * The one class that touches Liquibase. It is kept apart from {@link Migrator} so that the fast path
 * (an up-to-date file) never loads a single Liquibase class: the JVM verifier would otherwise load
 * some of them just to check Migrator's bytecode, and starting Liquibase costs about a second.
 */
final class LiquibaseUpdate {
    /** Liquibase keeps JVM-wide singletons (lock and history services): one update at a time. */
    private static final ReentrantLock ONE_AT_A_TIME = new ReentrantLock();

    private LiquibaseUpdate() {
    }

    /**
     * Runs the changelog on a connection that is inside a transaction the caller owns and will commit
     * or roll back; Liquibase only sees it through {@link InTransactionConnection}. Liquibase's own
     * output (banner, logs, summary) is silenced. Returns the changesets it ran or marked ran.
     */
    static List<MigrationResult.AppliedChange> run(Connection inTransaction, int version) throws Exception {
        return run(inTransaction, Changelog.master(version), Changelog.changeSets(version), null);
    }

    /**
     * Runs PostgreSQL's changelog for {@code version} on the store in {@code schema}, Liquibase's own
     * tables included; the caller has set the transaction's search path to that schema.
     */
    static List<MigrationResult.AppliedChange> runPostgresql(Connection inTransaction, String schema, int version)
            throws Exception {
        return run(inTransaction, Changelog.postgresqlMaster(version), Changelog.postgresqlChangeSets(version), schema);
    }

    private static List<MigrationResult.AppliedChange> run(Connection inTransaction, String master,
                                                           List<Changelog.ChangeSetRef> changeSets, @Nullable String schema)
            throws Exception {
        Map<String, Integer> versions = new HashMap<>();
        for (Changelog.ChangeSetRef changeSet : changeSets) {
            versions.put(changeSet.id(), changeSet.version());
        }
        List<MigrationResult.AppliedChange> changes = new ArrayList<>();
        AbstractChangeExecListener recorder = new AbstractChangeExecListener() {
            @Override
            public void ran(ChangeSet changeSet, DatabaseChangeLog changeLog, Database database, ChangeSet.ExecType execType) {
                String sql = changeSet.getChanges().stream()
                        .filter(RawSQLChange.class::isInstance)
                        .map(change -> ((RawSQLChange) change).getSql().strip())
                        .collect(Collectors.joining(";\n"));
                changes.add(new MigrationResult.AppliedChange(changeSet.getId(),
                        versions.getOrDefault(changeSet.getId(), 0), execType == ChangeSet.ExecType.EXECUTED, sql));
            }
        };
        Map<String, Object> quiet = Map.of(
                Scope.Attr.ui.name(), new LoggerUIService(),
                Scope.Attr.logService.name(), new NoOpLogService(),
                "liquibase.analytics.enabled", false);
        ONE_AT_A_TIME.lock();
        try {
            Scope.child(quiet, () -> {
                Database database = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(InTransactionConnection.wrap(inTransaction)));
                if (schema != null) {
                    database.setDefaultSchemaName(schema);
                    database.setLiquibaseSchemaName(schema);
                }
                try {
                    Liquibase liquibase = new Liquibase(master,
                            new ClassLoaderResourceAccessor(LiquibaseUpdate.class.getClassLoader()), database);
                    liquibase.setShowSummary(UpdateSummaryEnum.OFF);
                    liquibase.setChangeExecListener(recorder);
                    liquibase.update(new Contexts(), new LabelExpression());
                } finally {
                    // the services cache per-database state; the next update may be another file
                    LockServiceFactory.getInstance().resetAll();
                    Scope.getCurrentScope().getSingleton(ChangeLogHistoryServiceFactory.class).resetAll();
                }
            });
        } finally {
            ONE_AT_A_TIME.unlock();
        }
        return changes;
    }
}
