package dev.hermes.state.serve.browser;

import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What the browser tests share: the one headless Chromium, and the steps a reader takes (open an
 * address, wait until the page says it is ready, read what is on screen, click). Pages mark their root
 * {@code data-ready="yes"} when everything they asked the server for is on screen. A test class that
 * needs nothing else is {@code @ExtendWith(Chromium.class)} (skipped before its set-up without a
 * browser); one that also needs a PostgreSQL server lets that requirement speak first, and the browser is
 * required in {@link #browser()}.
 */
abstract class BrowserPages {
    /** With {@code -Dhermes.serve.screenshots=DIR}, {@link #screenshot} saves PNGs there (docs/screenshots). */
    static final String SCREENSHOTS = "hermes.serve.screenshots";

    static ChromeDriver driver;

    @BeforeEach
    void browser() {
        driver = Chromium.driver();
    }

    /** Loads {@code url} afresh (a new document) and waits for its page. */
    static void open(String url) {
        driver.get(url);
        waitReady();
    }

    /** Waits until the app's current page is ready (and not an error). */
    static WebElement waitReady() {
        WebElement page = new WebDriverWait(driver, Duration.ofSeconds(15)).until(
                ExpectedConditions.presenceOfElementLocated(By.cssSelector("#app > .page[data-ready]")));
        String ready = page.getAttribute("data-ready");
        if (!"yes".equals(ready)) {
            throw new AssertionError("the page failed: " + page.getText());
        }
        return page;
    }

    /** Clicks {@code element} (a link or button that changes the page) and waits for the next page. */
    static void clickAndWait(WebElement element) {
        WebElement before = driver.findElement(By.cssSelector("#app > .page"));
        element.click();
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(ExpectedConditions.stalenessOf(before));
        waitReady();
    }

    /** Chooses {@code value} in the select (the form applies itself on change) and waits for the next page. */
    static void choose(String selectCss, String value) {
        WebElement before = driver.findElement(By.cssSelector("#app > .page"));
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !d.findElements(
                By.cssSelector(selectCss + " option[value='" + value + "']")).isEmpty()); // the choices load after the page
        new Select(driver.findElement(By.cssSelector(selectCss))).selectByValue(value);
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(ExpectedConditions.stalenessOf(before));
        waitReady();
    }

    static List<String> texts(String css) {
        return driver.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
    }

    static List<String> attributes(String css, String attribute) {
        return driver.findElements(By.cssSelector(css)).stream().map(e -> e.getAttribute(attribute)).toList();
    }

    static String text(String css) {
        return driver.findElement(By.cssSelector(css)).getText();
    }

    static Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** The path, query and fragment of the current address. */
    static String location() {
        return (String) script("return location.pathname + location.search + location.hash");
    }

    /** The session ids of the Sessions page's rows, top to bottom. */
    @SuppressWarnings("unchecked")
    static List<String> listedIds() {
        // one script call: the live refresh may redraw the table between two WebDriver calls
        return (List<String>) script("return Array.from(document.querySelectorAll('#sessions-table tbody tr'))"
                + ".map(row => row.dataset.sessionId)");
    }

    /**
     * Asserts what the hostile-content test needs of every page: no alert is open, no payload set its
     * sentinel, no element carries an event-handler attribute, and no script element came from content
     * (the page has exactly its own module script).
     */
    static void assertNoScriptRan() {
        try {
            String alert = driver.switchTo().alert().getText();
            throw new AssertionError("a script from the content raised an alert: " + alert);
        } catch (NoAlertPresentException expected) {
            // none
        }
        assertEquals(Boolean.FALSE, script("return typeof window.__xss !== 'undefined'"), "window.__xss was set");
        @SuppressWarnings("unchecked")
        List<String> handlers = (List<String>) script("""
                const found = [];
                for (const element of document.querySelectorAll('*')) {
                  for (const attribute of element.attributes) {
                    if (attribute.name.toLowerCase().startsWith('on')) found.push(element.tagName + ' ' + attribute.name);
                    if (/^\\s*javascript:/i.test(attribute.value)) found.push(element.tagName + ' ' + attribute.name + '=' + attribute.value);
                  }
                }
                return found;""");
        assertEquals(List.of(), handlers, "elements with event handlers or javascript: URLs");
        @SuppressWarnings("unchecked")
        List<String> scripts = (List<String>) script(
                "return Array.from(document.scripts).map(s => s.getAttribute('src') || 'inline: ' + s.textContent)");
        assertEquals(List.of("/js/app.js"), scripts);
        assertFalse(driver.findElements(By.cssSelector("#app iframe, #app object, #app embed, #app svg script, #app style"))
                .stream().findAny().isPresent(), "active content from the store is in the page");
    }

    /** Saves a PNG of the window as {@code serve-NAME.png} when {@value #SCREENSHOTS} names a folder. */
    static void screenshot(String name) {
        String folder = System.getProperty(SCREENSHOTS);
        if (folder == null || folder.isBlank()) {
            return;
        }
        try {
            Path dir = Path.of(folder);
            Files.createDirectories(dir);
            Files.write(dir.resolve("serve-" + name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every canvas of the charts on the Analytics page, with its drawn size and series count. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> charts() {
        return (List<Map<String, Object>>) script("""
                return Array.from(document.querySelectorAll('figure.chart')).map(f => {
                  const canvas = f.querySelector('canvas');
                  return {id: f.id, series: Number(f.dataset.series), total: Number(f.dataset.total),
                          width: canvas ? canvas.width : 0, height: canvas ? canvas.height : 0,
                          painted: canvas ? paintedPixels(canvas) : 0};
                });
                function paintedPixels(canvas) {
                  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                  let n = 0;
                  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
                  return n;
                }""");
    }
}
