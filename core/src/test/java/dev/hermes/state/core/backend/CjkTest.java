package dev.hermes.state.core.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CjkTest {

    /** First and last code point of each of Hermes' ranges. */
    @ParameterizedTest
    @ValueSource(ints = {0x4E00, 0x9FFF, 0x3400, 0x4DBF, 0x20000, 0x2A6DF, 0x3000, 0x303F, 0x3040, 0x309F,
            0x30A0, 0x30FF, 0xAC00, 0xD7AF})
    void rangeEndsAreCjk(int codePoint) {
        assertTrue(Cjk.isCjk(codePoint), Integer.toHexString(codePoint));
        assertTrue(Cjk.containsCjk("x" + Character.toString(codePoint) + "y"));
    }

    /** Just outside the ranges: Yijing hexagrams, Yi, Bopomofo, CJK compatibility, Hangul Jamo... */
    @ParameterizedTest
    @ValueSource(ints = {0x4DC0, 0x4DFF, 0xA000, 0x33FF, 0x1FFFF, 0x2A6E0, 0x2FFF, 0x3100, 0xABFF, 0xD7B0, 0x1100,
            0xFF01, 0xF900, 0x2B740, 'A', 0x1F680})
    void neighboursAreNot(int codePoint) {
        assertFalse(Cjk.isCjk(codePoint), Integer.toHexString(codePoint));
    }

    @Test
    void detectsInText() {
        assertTrue(Cjk.containsCjk("数据库迁移"));
        assertTrue(Cjk.containsCjk("データベース"));
        assertTrue(Cjk.containsCjk("데이터베이스"));
        assertTrue(Cjk.containsCjk("done。"));
        assertTrue(Cjk.containsCjk("\u3000"));
        assertFalse(Cjk.containsCjk("database migration 🚀"));
        assertFalse(Cjk.containsCjk(""));
        assertFalse(Cjk.containsCjk(null));
    }
}
