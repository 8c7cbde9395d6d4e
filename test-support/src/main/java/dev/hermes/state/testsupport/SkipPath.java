package dev.hermes.state.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Proves the path a newcomer takes first: a machine with a JDK and Maven and nothing else. Runs test
 * classes with JUnit's own launcher in a child JVM whose environment has no {@code HERMES_TEST_PG_URL},
 * no {@code CI} and a {@code PATH} holding only the JDK's programs (no python3, no psql), and returns
 * what every test and container came to, so that a module's test can assert that the tests gated on a
 * missing requirement are skipped, with the reason, and that nothing else fails.
 */
public final class SkipPath {
    private static final String LINE = "SKIP-PATH\t";

    /** One test or container of the child's run. */
    public record Outcome(boolean test, String status, String uniqueId, String displayName, String reason) {
        public boolean skipped() {
            return status.equals("SKIPPED") || status.equals("ABORTED");
        }

        public boolean failed() {
            return status.equals("FAILED");
        }

        @Override
        public String toString() {
            return status + " " + uniqueId + (reason.isEmpty() ? "" : " (" + reason + ")");
        }
    }

    private SkipPath() {
    }

    /** Runs the named test classes on a bare machine (see the class comment) and returns every outcome. */
    public static List<Outcome> runOnBareMachine(List<String> classNames) {
        String[] args = classNames.toArray(String[]::new);
        String jdkPrograms = Path.of(System.getProperty("java.home"), "bin").toString();
        List<String> jvmOptions = System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("hermes.") && !name.equals("hermes.test.pg.url"))
                .sorted().map(name -> "-D" + name + "=" + System.getProperty(name)).toList(); // the module's own settings
        ProcessResult run = Command.java(jvmOptions, SkipPath.class, args)
                .withoutEnv(PostgresTestSchema.URL_VARIABLE)
                .withoutEnv("CI")
                .withEnv("PATH", jdkPrograms)
                .run(Duration.ofMinutes(10));
        List<Outcome> outcomes = new ArrayList<>();
        for (String line : run.stdout().split("\n", -1)) {
            if (line.startsWith(LINE)) {
                String[] fields = line.substring(LINE.length()).split("\t", -1);
                outcomes.add(new Outcome(fields[0].equals("test"), fields[1], fields[2], fields[3], fields[4]));
            }
        }
        if (run.exitCode() != 0 || outcomes.isEmpty()) {
            throw new AssertionError("the bare-machine run did not complete: " + run);
        }
        return outcomes;
    }

    /** What a PostgreSQL test says when it is skipped for want of a server. */
    public static final String NO_SERVER = "no PostgreSQL server for the tests: " + PostgresTestSchema.URL_VARIABLE + " is not set";

    /**
     * Runs every server-gated test class of the module {@code anyTestClass} belongs to on a bare machine
     * and asserts that only tests were skipped, each for want of the server, and that nothing failed.
     * Returns every outcome, for a module to check more.
     */
    public static List<Outcome> assertServerGatedTestsSkipWithoutServer(Class<?> anyTestClass) {
        List<Class<?>> gated = serverGatedClasses(anyTestClass);
        if (gated.isEmpty()) {
            throw new AssertionError("no test class of this module uses PostgresTestSchema");
        }
        List<Outcome> outcomes = runOnBareMachine(gated.stream().map(Class::getName).toList());
        assertSkippedOnlyFor(outcomes, NO_SERVER);
        return outcomes;
    }

    /**
     * Asserts what a bare machine must show: nothing failed, something was skipped, and every skip
     * gives {@code reason} (the requirement's own message, so that nothing is skipped for another cause).
     * Returns the skipped ones.
     */
    public static List<Outcome> assertSkippedOnlyFor(List<Outcome> outcomes, String reason) {
        List<Outcome> failed = outcomes.stream().filter(Outcome::failed).toList();
        if (!failed.isEmpty()) {
            throw new AssertionError("on a bare machine these failed instead of being skipped: " + failed);
        }
        List<Outcome> skipped = outcomes.stream().filter(Outcome::skipped).toList();
        if (skipped.isEmpty()) {
            throw new AssertionError("nothing was skipped on a bare machine: " + outcomes);
        }
        List<Outcome> otherReason = skipped.stream().filter(o -> !o.reason().contains(reason)).toList();
        if (!otherReason.isEmpty()) {
            throw new AssertionError("skipped without saying \"" + reason + "\": " + otherReason);
        }
        return skipped;
    }

    /**
     * The test classes of the module that {@code anyTestClass} belongs to (its test output folder) that
     * use a {@link PostgresTestSchema}, in a field of theirs or of a superclass: the server-gated ones.
     */
    public static List<Class<?>> serverGatedClasses(Class<?> anyTestClass) {
        Path root;
        try {
            root = Path.of(anyTestClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Class<?>> gated = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, anyTestClass.getClassLoader());
                if (!Modifier.isAbstract(type.getModifiers()) && !type.isMemberClass() && !type.isAnonymousClass()
                        && !type.isLocalClass() && usesPostgres(type)) {
                    gated.add(type);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return gated;
    }

    private static boolean usesPostgres(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.getType() == PostgresTestSchema.class) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The child: runs the named classes, one line per finished test or container on stdout. */
    public static void main(String[] classNames) throws ClassNotFoundException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (String name : classNames) {
            request.selectors(selectClass(Class.forName(name)));
        }
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request.build(), new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                print(id, "SKIPPED", reason);
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                String reason = result.getThrowable().map(t -> t.getClass().getSimpleName() + ": " + t.getMessage()).orElse("");
                print(id, result.getStatus().name(), reason);
            }

            private void print(TestIdentifier id, String status, String reason) {
                out.println(LINE + (id.isTest() ? "test" : "container") + "\t" + status + "\t" + id.getUniqueId()
                        + "\t" + oneLine(id.getDisplayName()) + "\t" + oneLine(reason));
            }
        });
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\t\\r\\n]+", " ");
    }
}
