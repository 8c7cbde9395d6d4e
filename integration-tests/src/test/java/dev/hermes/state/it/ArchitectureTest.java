package dev.hermes.state.it;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The architecture, checked on the production classes of every module (this module sees them all):
 * no package cycle; other modules use only the packages core exports (its public API); SQLite's
 * driver and SQLite-specific SQL only where the SQLite engine lives, PostgreSQL's driver, pool and SQL
 * only where the PostgreSQL engine lives.
 */
class ArchitectureTest {
    /** What core offers other modules: the repository, its records and queries, the JSON reader, the store doctor. */
    private static final String[] CORE_API = {"dev.hermes.state.core", "dev.hermes.state.core.model", "dev.hermes.state.core.json",
            "dev.hermes.state.core.maintenance"};
    /** Where SQLite's driver may be used: core's SQLite engine, the SQLite file rules, the migrations. */
    private static final String[] SQLITE_PLACES = {"dev.hermes.state.core.backend.sqlite", "dev.hermes.state.sqlite..",
            "dev.hermes.state.migrations.."};

    /** Where PostgreSQL's driver and the pool may be used: core's PostgreSQL engine, the postgresql module, the migrations. */
    private static final String[] POSTGRES_PLACES = {"dev.hermes.state.core.backend.postgres",
            "dev.hermes.state.postgresql..", "dev.hermes.state.migrations.."};

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.hermes.state");
        // test-support's main code is test code (fixtures, child processes)
        production = production.that(not(resideInAPackage("dev.hermes.state.testsupport..")));
        for (String module : List.of("core.StateRepository", "cli.HermesStateCli", "migrations.Migrator", "bench.Benchmark")) {
            assertTrue(production.contain("dev.hermes.state." + module), "imported " + module);
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.hermes.state.(**)")
                .should().beFreeOfCycles()
                .because("every package depends on packages below it only (generated jOOQ code aside)")
                .check(production.that(not(resideInAPackage("dev.hermes.state.db.."))));
    }

    @Test
    void otherModulesUseOnlyCoresPublicApi() {
        noClasses().that().resideOutsideOfPackage("dev.hermes.state.core..")
                .should().dependOnClassesThat(resideInAPackage("dev.hermes.state.core..").and(not(resideInAnyPackage(CORE_API))))
                .because("core exports only its API; the rest of it may change at any time")
                .check(production);
    }

    @Test
    void sqliteDriverOnlyWhereTheSqliteEngineLives() {
        noClasses().that().resideOutsideOfPackages(SQLITE_PLACES)
                // the command's launcher unpacks the driver's native library before anything else runs
                .and().doNotHaveFullyQualifiedName("dev.hermes.state.cli.launch.SqliteLibraryExport")
                .should().dependOnClassesThat().resideInAPackage("org.sqlite..")
                .because("another engine is another implementation of core.backend, not a change above it")
                .check(production);
    }

    @Test
    void postgresDriverAndPoolOnlyWhereThePostgresEngineLives() {
        noClasses().that().resideOutsideOfPackages(POSTGRES_PLACES)
                .should().dependOnClassesThat().resideInAnyPackage("org.postgresql..", "com.zaxxer.hikari..")
                .because("another engine is another implementation of core.backend, not a change above it")
                .check(production);
    }

    /** SQL words only SQLite understands, in a string literal of core's main code. */
    private static final Pattern SQLITE_SQL = Pattern.compile("\\bMATCH\\b|(?i:\\bpragma\\b|\\bfts5\\b|messages_fts|\\bbm25\\b"
            + "|snippet\\(|json_each|\\browid\\b|wal_checkpoint|begin immediate|\\bvacuum\\b|\\binstr\\()");
    /** SQL words only PostgreSQL understands, in a string literal of core's main code. */
    private static final Pattern POSTGRES_SQL = Pattern.compile("::|@@|@>|(?i:\\bts_headline\\b|\\bts_rank\\b|tsvector|tsquery"
            + "|pg_catalog|pg_advisory|\\bjsonb\\b|messages_search_query|messages_cjk_grams|content_tsv|content_grams)");
    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");

    @Test
    void sqliteSqlOnlyInCoresSqliteEngine() throws IOException {
        assertEquals(List.of(), engineSqlOutside("backend/sqlite", SQLITE_SQL), "SQLite-specific SQL outside core.backend.sqlite");
    }

    @Test
    void postgresSqlOnlyInCoresPostgresEngine() throws IOException {
        assertEquals(List.of(), engineSqlOutside("backend/postgres", POSTGRES_SQL),
                "PostgreSQL-specific SQL outside core.backend.postgres");
    }

    /**
     * The string literals of core's main code that {@code engineSql} finds outside the engine's package
     * (and outside the other engine's: both spell words such as rowid or VACUUM); checks that the
     * engine itself spells some, so that the check is known to look where the SQL is.
     */
    private static List<String> engineSqlOutside(String enginePackage, Pattern engineSql) throws IOException {
        Path core = Path.of(System.getProperty("hermes.repo.root", "..")).toAbsolutePath().normalize()
                .resolve("core/src/main/java/dev/hermes/state/core");
        Path engine = core.resolve(enginePackage);
        Path engines = core.resolve("backend");
        List<Path> sources;
        try (Stream<Path> files = Files.walk(core)) {
            sources = files.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(sources.size() > 40, "core's sources were found under " + core + ": " + sources.size());
        List<String> found = new ArrayList<>();
        boolean engineSpellsIt = false;
        for (Path source : sources) {
            boolean otherEngine = !source.startsWith(engine) && source.getParent().getParent().equals(engines);
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("*") || line.startsWith("//") || line.startsWith("/*")) {
                    continue;
                }
                Matcher literal = STRING_LITERAL.matcher(line);
                while (literal.find()) {
                    if (engineSql.matcher(literal.group()).find()) {
                        if (source.startsWith(engine)) {
                            engineSpellsIt = true;
                        } else if (!otherEngine) {
                            found.add(core.relativize(source) + ":" + (i + 1) + ": " + literal.group());
                        }
                    }
                }
            }
        }
        assertTrue(engineSpellsIt, "the check finds the engine's SQL where it is");
        return found;
    }
}
