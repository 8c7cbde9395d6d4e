package dev.hermes.state.memory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class HandedOutMessagesTest {
    @Test
    void theSameObjectIsKnownAnEqualOneIsNew() {
        HandedOutMessages<String> handedOut = new HandedOutMessages<>();
        String loaded = new String("yes");
        handedOut.remember("c", loaded, List.of(7L, 8L));

        assertEquals(List.of(7L, 8L), handedOut.rowsOf("c", loaded));
        assertNull(handedOut.rowsOf("c", new String("yes")), "an equal message the user sent again is new");
        assertNull(handedOut.rowsOf("other", loaded), "rows of one conversation are not another's");
    }
}
