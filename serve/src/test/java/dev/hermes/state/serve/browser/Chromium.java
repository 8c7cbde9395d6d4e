package dev.hermes.state.serve.browser;

import dev.hermes.state.testsupport.MachineRequirement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The real browser of the browser tests: Debian's {@code chromium}, headless, driven through Debian's
 * {@code chromedriver} over WebDriver. Both are looked up on the PATH (a bare machine has neither, and
 * its tests are skipped; under {@code CI=true} they fail: {@link MachineRequirement}); the driver is
 * always the system's, given to Selenium by path, so Selenium Manager never downloads one. One browser
 * serves every browser test of the JVM (starting one takes a second or two), quit when the JVM ends.
 * Register as {@code @ExtendWith(Chromium.class)}: it skips a test class before any of its set-up.
 */
public final class Chromium implements ExecutionCondition {
    /** The window the pages are tested (and the screenshots taken) in. */
    static final int WIDTH = 1280;
    static final int HEIGHT = 800;

    private static @Nullable ChromeDriver shared;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return MachineRequirement.condition(missing());
    }

    /** What is missing for the browser tests, or null when chromium and chromedriver are both on the PATH. */
    static @Nullable String missing() {
        if (onPath("chromium") == null) {
            return "chromium is not installed (Debian: apt-get install chromium chromium-driver; .ci/run installs it)";
        }
        if (onPath("chromedriver") == null) {
            return "chromedriver is not installed (Debian: apt-get install chromium-driver; .ci/run installs it)";
        }
        return null;
    }

    /** The shared browser, started on first use; skips (fails under CI) when chromium is missing. */
    static synchronized ChromeDriver driver() {
        String missing = missing();
        MachineRequirement.require(missing == null, String.valueOf(missing));
        if (shared == null) {
            shared = start();
            ChromeDriver started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(started::quit, "chromium-quit"));
        }
        return shared;
    }

    private static ChromeDriver start() {
        Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE); // the CDP version notice: not needed
        Path profile;
        try {
            profile = Files.createTempDirectory("hermes-serve-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(onPath("chromium").toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=" + WIDTH + "," + HEIGHT, "--force-device-scale-factor=1", "--lang=en-US",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--user-data-dir=" + profile);
        // an alert a payload might raise must not be dismissed silently: the XSS test looks for it
        options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
        options.setExperimentalOption("prefs", Map.of("intl.accept_languages", "en-US"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(onPath("chromedriver").toFile())
                .usingAnyFreePort()
                .withSilent(true)
                .build();
        return new ChromeDriver(service, options);
    }

    private static @Nullable Path onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
