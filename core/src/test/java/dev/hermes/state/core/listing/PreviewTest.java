package dev.hermes.state.core.listing;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rich listing's preview rule on its own (the listing itself: RichListingTest, on real files). */
class PreviewTest {

    @Test
    void previewRuleOnItsOwn() {
        assertEquals("", RichListing.preview(null, true));
        assertEquals("", RichListing.preview("   ", true));
        assertEquals("abc", RichListing.preview("\t abc \u00a0", true));
    }

    /** SQLite's substr reads structured content (its NUL marker) as empty; PostgreSQL's SOH marker previews alike. */
    @Test
    void structuredContentPreviewsAsEmptyOnBothEngines() {
        assertEquals("", RichListing.preview("\u0001json:[{\"type\": \"text\", \"text\": \"Which nebula", false));
        assertEquals("\u0001json:[", RichListing.preview("\u0001json:[", true));
    }
}
