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
 * The project's changelog as plain data, read without starting Liquibase: the ordered changesets
 * (id and schema version) the master changelog includes. The fast path compares a file's
 * DATABASECHANGELOG with this list, which costs microseconds instead of Liquibase's second.
 */
final class Changelog {
    static final String RESOURCE_FOLDER = "dev/hermes/state/migrations/";
    static final String MASTER = RESOURCE_FOLDER + "changelog.xml";

    private static final Pattern INCLUDE = Pattern.compile("<include\\s+file=\"(v(\\d+)\\.sql)\"");
    private static final Pattern CHANGESET = Pattern.compile("^--changeset\\s+([^:\\s]+):(\\S+)", Pattern.MULTILINE);
    private static final Pattern LOGICAL_PATH = Pattern.compile("logicalFilePath:(\\S+)");

    /** One changeset of the changelog, identified as Liquibase identifies it. */
    record ChangeSetRef(int version, String author, String id, String logicalFile) {
    }

    private static final List<ChangeSetRef> CHANGESETS = load();

    private Changelog() {
    }

    static List<ChangeSetRef> changeSets() {
        return CHANGESETS;
    }

    static int latestVersion() {
        return CHANGESETS.get(CHANGESETS.size() - 1).version();
    }

    private static List<ChangeSetRef> load() {
        List<ChangeSetRef> result = new ArrayList<>();
        Matcher include = INCLUDE.matcher(read(MASTER));
        while (include.find()) {
            int version = Integer.parseInt(include.group(2));
            String sql = read(RESOURCE_FOLDER + include.group(1));
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
            throw new IllegalStateException("The changelog " + MASTER + " lists no changesets");
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
