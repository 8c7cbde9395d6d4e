package dev.hermes.state.migrations;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project's changelogs as plain data, read without starting Liquibase: the ordered changesets
 * (id and schema version) a master changelog includes. The fast path compares a store's
 * DATABASECHANGELOG with this list, which costs microseconds instead of Liquibase's second.
 * SQLite's changelog is the one beside this class; PostgreSQL's, for the same versions, is in the
 * {@code postgresql/} folder below it.
 */
final class Changelog {
    static final String RESOURCE_FOLDER = "dev/hermes/state/migrations/";
    static final String MASTER = RESOURCE_FOLDER + "changelog.xml";
    /** The store held at schema version 6 ({@link #KEPT_VERSION}): the first part of {@link #MASTER}. */
    static final String MASTER_V6 = RESOURCE_FOLDER + "changelog-v6.xml";
    /** The one older version a store can be kept at (for an agent of April 2026). */
    static final int KEPT_VERSION = 6;
    static final String POSTGRESQL_FOLDER = RESOURCE_FOLDER + "postgresql/";
    static final String POSTGRESQL_MASTER = POSTGRESQL_FOLDER + "changelog.xml";
    /** PostgreSQL's store held at {@link #KEPT_VERSION}: the first part of {@link #POSTGRESQL_MASTER}. */
    static final String POSTGRESQL_MASTER_V6 = POSTGRESQL_FOLDER + "changelog-v6.xml";

    /** An included file: {@code vN.sql} builds Hermes' schema version N; any other belongs to the version before it. */
    private static final Pattern INCLUDE = Pattern.compile("<include\\s+file=\"((?:v(\\d+)|[a-z-]+)\\.sql)\"");
    private static final Pattern CHANGESET = Pattern.compile("^--changeset\\s+([^:\\s]+):(\\S+)", Pattern.MULTILINE);
    private static final Pattern LOGICAL_PATH = Pattern.compile("logicalFilePath:(\\S+)");

    /**
     * One changeset of the changelog, identified as Liquibase identifies it; {@code version} is the
     * Hermes schema version it belongs to (hermes-state's own tables: the version they come after).
     */
    record ChangeSetRef(int version, String author, String id, String logicalFile) {
    }

    private static final List<ChangeSetRef> CHANGESETS = load(RESOURCE_FOLDER);

    /** Read on first use only: opening a SQLite file never reads the PostgreSQL changelog. */
    private static final class Postgresql {
        static final List<ChangeSetRef> CHANGESETS = load(POSTGRESQL_FOLDER);
    }

    private Changelog() {
    }

    /** SQLite's changesets, in order. */
    static List<ChangeSetRef> changeSets() {
        return CHANGESETS;
    }

    /** SQLite's changesets that build a store at {@code version} ({@link #KEPT_VERSION} or the latest), in order. */
    static List<ChangeSetRef> changeSets(int version) {
        return upTo(CHANGESETS, version);
    }

    /** The master changelog (a resource) that builds a store at {@code version}. */
    static String master(int version) {
        return version == KEPT_VERSION ? MASTER_V6 : MASTER;
    }

    /** PostgreSQL's changesets, in order. */
    static List<ChangeSetRef> postgresqlChangeSets() {
        return Postgresql.CHANGESETS;
    }

    /** PostgreSQL's changesets that build a store at {@code version} ({@link #KEPT_VERSION} or the latest), in order. */
    static List<ChangeSetRef> postgresqlChangeSets(int version) {
        return upTo(Postgresql.CHANGESETS, version);
    }

    /** PostgreSQL's master changelog (a resource) that builds a store at {@code version}. */
    static String postgresqlMaster(int version) {
        return version == KEPT_VERSION ? POSTGRESQL_MASTER_V6 : POSTGRESQL_MASTER;
    }

    static int latestVersion() {
        return CHANGESETS.get(CHANGESETS.size() - 1).version();
    }

    private static List<ChangeSetRef> upTo(List<ChangeSetRef> changeSets, int version) {
        return version == latestVersion() ? changeSets
                : changeSets.stream().filter(changeSet -> changeSet.version() <= version).toList();
    }

    private static List<ChangeSetRef> load(String folder) {
        List<ChangeSetRef> result = new ArrayList<>();
        Matcher include = INCLUDE.matcher(read(folder + "changelog.xml"));
        int version = 0;
        while (include.find()) {
            if (include.group(2) != null) {
                version = Integer.parseInt(include.group(2));
            } else if (version == 0) {
                throw new IllegalStateException(include.group(1) + " comes before any schema version");
            }
            String sql = read(folder + include.group(1));
            Matcher path = LOGICAL_PATH.matcher(sql);
            if (!path.find()) {
                throw new IllegalStateException(include.group(1) + " has no logicalFilePath");
            }
            Matcher changeSet = CHANGESET.matcher(sql);
            while (changeSet.find()) {
                result.add(new ChangeSetRef(version, changeSet.group(1), changeSet.group(2), path.group(1)));
            }
        }
        if (result.isEmpty()) {
            throw new IllegalStateException("The changelog " + folder + "changelog.xml lists no changesets");
        }
        return List.copyOf(result);
    }

    private static String read(String resource) {
        try (InputStream in = Changelog.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing changelog resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
