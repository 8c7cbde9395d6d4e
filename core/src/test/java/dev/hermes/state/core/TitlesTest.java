package dev.hermes.state.core;

import dev.hermes.state.ErrorType;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Titles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TitlesTest {

    @Test
    void nullAndEmptyAreNoTitle() {
        assertEquals(Optional.empty(), Titles.sanitize(null));
        assertEquals(Optional.empty(), Titles.sanitize(""));
    }

    @Test
    void plainTitlesAreKept() {
        assertEquals(Optional.of("my project"), Titles.sanitize("my project"));
        assertEquals(Optional.of("PR #438 — fixing the 'auth' middleware"), Titles.sanitize("PR #438 — fixing the 'auth' middleware"));
        assertEquals(Optional.of("数据库迁移"), Titles.sanitize("数据库迁移"));
        assertEquals(Optional.of("🚀 Launch plan"), Titles.sanitize("🚀 Launch plan"));
        assertEquals(Optional.of("100% done"), Titles.sanitize("100% done"));
    }

    @Test
    void whitespaceRunsCollapseAndEndsAreTrimmed() {
        assertEquals(Optional.of("a b c d"), Titles.sanitize("  a \t\n b\r\n\r\nc   d  "));
        assertEquals(Optional.of("a b"), Titles.sanitize("a\u00a0\u00a0b"));
        assertEquals(Optional.of("a b"), Titles.sanitize("a\u3000b"));
        assertEquals(Optional.of("a b"), Titles.sanitize("a\u0085b"));
        assertEquals(Optional.of("a b"), Titles.sanitize("a\u1680\u2000\u2007\u200a\u202f\u205fb"));
        assertEquals(Optional.of("a b"), Titles.sanitize("\u3000a\u00a0b\u00a0"));
    }

    @Test
    void controlCharactersAreRemovedNotSpaced() {
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c <= 0x1f; c++) {
            if (c != '\t' && c != '\n' && c != '\r') {
                controls.append(c);
            }
        }
        controls.append('\u007f');
        assertEquals(Optional.of("ab"), Titles.sanitize("a" + controls + "b"));
        // vertical tab, form feed and the file/group/record/unit separators are Python whitespace, but go first
        assertEquals(Optional.of("ab"), Titles.sanitize("a\u000b\u000c\u001c\u001fb"));
    }

    @Test
    void invisibleAndDirectionCharactersAreRemoved() {
        String removed = "\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
                + "\u2060\u2061\u2062\u2063\u2064\u2065\u2066\u2067\u2068\u2069\ufeff\ufff9\ufffa\ufffb\ufffc";
        assertEquals(5 + 7 + 10 + 1 + 4, removed.length());
        assertEquals(Optional.of("ab"), Titles.sanitize("a" + removed + "b"));
        // U+2028/2029 are removed before whitespace is collapsed: they do not separate words
        assertEquals(Optional.of("ab"), Titles.sanitize("a\u2028b"));
        // their neighbours stay (U+200A and U+202F are whitespace, so they become spaces)
        assertEquals(Optional.of("a \u2027 \u206a\ufffdb"), Titles.sanitize("a\u200a\u2027\u202f\u206a\ufffdb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {" ", "   ", "\t\n\r", "\u200b", "\u0000\u0001", "\ufeff \u200d", "\u3000\u00a0\u0085"})
    void nothingLeftIsNoTitle(String title) {
        assertEquals(Optional.empty(), Titles.sanitize(title));
    }

    @Test
    void lengthIsCountedInCodePoints() {
        String hundredEmoji = "😀".repeat(100);
        assertEquals(200, hundredEmoji.length());
        assertEquals(Optional.of(hundredEmoji), Titles.sanitize(hundredEmoji));
        assertEquals(Optional.of("a".repeat(100)), Titles.sanitize("a".repeat(100)));
        // trimmed and collapsed before counting
        assertEquals(Optional.of("a".repeat(50) + " " + "b".repeat(49)),
                Titles.sanitize("   " + "a".repeat(50) + " \t\n " + "b".repeat(49) + "   "));
    }

    @Test
    void tooLongIsAnInvalidArgument() {
        InvalidArgumentException ascii = assertThrows(InvalidArgumentException.class, () -> Titles.sanitize("a".repeat(101)));
        assertEquals("Title too long (101 chars, max 100)", ascii.getMessage());
        assertEquals(ErrorType.INVALID_ARGUMENT, ascii.type());

        InvalidArgumentException emoji = assertThrows(InvalidArgumentException.class, () -> Titles.sanitize("😀".repeat(101)));
        assertEquals("Title too long (101 chars, max 100)", emoji.getMessage());

        InvalidArgumentException mixed = assertThrows(InvalidArgumentException.class,
                () -> Titles.sanitize("数据库".repeat(50) + "  🚀"));
        assertEquals("Title too long (152 chars, max 100)", mixed.getMessage());
    }
}
