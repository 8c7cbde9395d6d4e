package dev.hermes.state.testsupport;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The pieces {@link DocExample} compares: a Markdown block after its marker, a marked source region, indentation. */
class DocExampleTest {
    private static final Path DOC = Path.of("doc.md");
    private static final Path SOURCE = Path.of("Source.java");

    @Test
    void theBlockAfterTheMarkerIsTheExample() {
        List<String> doc = List.of("text", "<!-- example: x -->", "```java", "a();", "  b();", "```", "more");
        assertEquals(List.of("a();", "  b();"), DocExample.docBlock(doc, "x", DOC));
        assertThrows(AssertionError.class, () -> DocExample.docBlock(doc, "y", DOC));
        assertThrows(AssertionError.class, () -> DocExample.docBlock(List.of("<!-- example: x -->", "a();"), "x", DOC));
        assertThrows(AssertionError.class, () -> DocExample.docBlock(List.of("<!-- example: x -->", "```", "a();"), "x", DOC));
    }

    @Test
    void theRegionBetweenTheMarkersIsTheTestedCode() {
        List<String> source = List.of("class A {", "    // --- example x starts ---", "    a();", "    // --- example x ends ---", "}");
        assertEquals(List.of("    a();"), DocExample.region(source, "x", SOURCE));
        assertThrows(AssertionError.class, () -> DocExample.region(source, "y", SOURCE));
    }

    @Test
    void sharedIndentationAndSurroundingBlankLinesDoNotCount() {
        assertEquals(List.of("a();", "", "  b();"), DocExample.normalised(List.of("", "    a();  ", "", "      b();", "   ")));
        assertEquals(DocExample.normalised(List.of("a();", "  b();")), DocExample.normalised(List.of("        a();", "          b();")));
        // a change of the relative indentation, or of any character, is a difference
        assertEquals(false, DocExample.normalised(List.of("a();", "b();")).equals(DocExample.normalised(List.of("a();", "  b();"))));
    }

    @Test
    void theCheckoutRootIsFoundAboveTheModule() {
        Path root = DocExample.checkoutRoot(Path.of("").toAbsolutePath());
        assertEquals(true, root.resolve(".ci/run").toFile().isFile());
    }
}
