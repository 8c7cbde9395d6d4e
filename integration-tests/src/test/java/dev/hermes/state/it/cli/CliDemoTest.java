package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code demo}, the README's first command: fills its database once and tours the product. */
class CliDemoTest {
    @TempDir
    Path dir;

    @Test
    void theTourShowsEachFeatureAndReRunningAddsNothing() {
        Cli cli = new Cli(dir);
        String db = dir.resolve("demo").resolve("state.db").toString();
        String first = cli.run("--db", db, "demo").ok().stdout();
        assertTrue(first.contains("Database: " + db + " (new: added 12 sample sessions with "), first);
        for (String expected : List.of(
                "== 1. The sessions, newest first ==   $ hermes-state --db " + db + " sessions list",
                "== 2. Full-text search ==",
                "== 3. A compression chain ==",
                "== 4. Statistics ==",
                "⛓ my project #4",
                ">>>database migration<<<",
                ">>>迁移<<<",
                "└─ my project #2",
                "      └─ my project #4",
                "数据库迁移",
                "🚀 Launch plan",
                "Per source",
                "== Next ==")) {
            assertTrue(first.contains(expected), "the tour shows '" + expected + "':\n" + first);
        }
        JsonNode stats = cli.json("--db", db, "--json", "stats");
        int sessions = stats.get("sessions").asInt();
        int messages = stats.get("messages").asInt();
        assertEquals(12, sessions, "8 conversations, one of them a chain of 4 with a delegate");
        Set<String> sources = new TreeSet<>();
        stats.get("by_source").forEach(row -> sources.add(row.get("source").asText()));
        assertEquals(Set.of("cli", "discord", "slack", "telegram"), sources);

        String second = cli.run("--db", db, "demo").ok().stdout();
        assertTrue(second.contains("Database: " + db + " (reusing its " + sessions + " sessions and " + messages
                + " messages"), second);
        JsonNode again = cli.json("--db", db, "--json", "stats");
        assertEquals(sessions, again.get("sessions").asInt(), "re-running adds nothing");
        assertEquals(messages, again.get("messages").asInt());
    }

    @Test
    void withoutDbTheDemoUsesTargetDemoUnderTheCurrentFolder() throws Exception {
        Path workdir = Files.createDirectories(dir.resolve("checkout"));
        ProcessResult demo = new Cli(dir).command("demo").withDirectory(workdir).run().ok();
        assertTrue(Files.isRegularFile(workdir.resolve("target/demo/state.db")), demo.toString());
        assertTrue(demo.stdout().contains("Database: target/demo/state.db (new: "), demo.toString());
        assertTrue(!Files.exists(dir.resolve("state.db")), "HERMES_HOME's store is never touched by the demo");
    }
}
