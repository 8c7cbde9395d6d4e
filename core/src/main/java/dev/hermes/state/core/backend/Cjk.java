package dev.hermes.state.core.backend;

/**
 * Detects Chinese, Japanese and Korean text, for which the default FTS5 tokenizer (unicode61) indexes a
 * whole run of characters as one token: {@code 迁移} does not match {@code 数据库迁移问题}. The ranges
 * are exactly Hermes' ({@code SessionDB._contains_cjk}).
 */
final class Cjk {
    private Cjk() {
    }

    /** True when {@code text} holds at least one code point of a CJK range. */
    static boolean containsCjk(String text) {
        return text != null && text.codePoints().anyMatch(Cjk::isCjk);
    }

    /** The number of CJK code points in {@code text}. */
    static int count(String text) {
        return (int) text.codePoints().filter(Cjk::isCjk).count();
    }

    static boolean isCjk(int codePoint) {
        return between(codePoint, 0x4E00, 0x9FFF)       // CJK unified ideographs
                || between(codePoint, 0x3400, 0x4DBF)   // extension A
                || between(codePoint, 0x20000, 0x2A6DF) // extension B
                || between(codePoint, 0x3000, 0x303F)   // CJK symbols and punctuation
                || between(codePoint, 0x3040, 0x309F)   // hiragana
                || between(codePoint, 0x30A0, 0x30FF)   // katakana
                || between(codePoint, 0xAC00, 0xD7AF);  // hangul syllables
    }

    private static boolean between(int codePoint, int first, int last) {
        return codePoint >= first && codePoint <= last;
    }
}
