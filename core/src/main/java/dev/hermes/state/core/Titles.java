package dev.hermes.state.core;

import java.util.Optional;

/** Session-title rules shared by the store and its callers (SPEC section 4, Titles). */
public final class Titles {
    /** Longest title, in code points. */
    public static final int MAX_LENGTH = 100;

    private Titles() {
    }

    /**
     * sanitize_title: null/empty → empty; removes control and invisible characters, collapses whitespace
     * runs, trims; longer than 100 code points → InvalidArgumentException "Title too long (N chars, max 100)".
     */
    public static Optional<String> sanitize(String title) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }
}
