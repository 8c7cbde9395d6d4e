package dev.hermes.state.core.sessions;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rich listing's preview rule on its own (the listing itself: RichListingTest, on real files). */
class PreviewTest {

    @Test
    void previewRuleOnItsOwn() {
        assertEquals("", SessionPreviews.preview(null, true));
        assertEquals("", SessionPreviews.preview("   ", true));
        assertEquals("abc", SessionPreviews.preview("\t abc \u00a0", true));
    }

    /** SQLite's substr reads structured content (its NUL marker) as empty; PostgreSQL's SOH marker previews alike. */
    @Test
    void structuredContentPreviewsAsEmptyOnBothEngines() {
        assertEquals("", SessionPreviews.preview("\u0001json:[{\"type\": \"text\", \"text\": \"Which nebula", false));
        assertEquals("\u0001json:[", SessionPreviews.preview("\u0001json:[", true));
    }
}
