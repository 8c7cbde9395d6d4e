package dev.hermes.state.core.listing;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rich listing's preview rule on its own (the listing itself: RichListingTest, on real files). */
class PreviewTest {

    @Test
    void previewRuleOnItsOwn() {
        assertEquals("", RichListing.preview(null));
        assertEquals("", RichListing.preview("   "));
        assertEquals("abc", RichListing.preview("\t abc \u00a0"));
    }
}
