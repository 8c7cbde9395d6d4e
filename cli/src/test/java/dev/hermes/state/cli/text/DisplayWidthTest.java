package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DisplayWidthTest {
    @Test
    void asciiTakesOneColumnPerCharacter() {
        assertEquals(10, DisplayWidth.of("my project"));
        assertEquals(0, DisplayWidth.of(""));
    }

    @Test
    void chineseJapaneseKoreanAndFullwidthTakeTwo() {
        assertEquals(10, DisplayWidth.of("数据库迁移"));
        assertEquals(8, DisplayWidth.of("デプロイ"));
        assertEquals(4, DisplayWidth.of("배포"));
        assertEquals(2, DisplayWidth.of("？"));
    }

    @Test
    void emojiTakeTwoAndSupplementaryCharactersCountOnce() {
        assertEquals(2, DisplayWidth.of("🚀"));
        assertEquals(2 + 1 + 6, DisplayWidth.of("🚀 Launch"));
        assertEquals(2, DisplayWidth.of("🐛"));
        assertEquals(2, DisplayWidth.of("🙏"));
    }

    @Test
    void combiningMarksFormatCharactersAndAnsiTakeNothing() {
        assertEquals(6, DisplayWidth.of("Re\u0301sume\u0301")); // decomposed accents
        assertEquals(6, DisplayWidth.of("Résumé"));
        assertEquals(2, DisplayWidth.of("a\u200Bb"));
        assertEquals(5, DisplayWidth.of("\u001B[1;33mmatch\u001B[0m"));
    }

    @Test
    void truncateCutsByColumnsAndMarksTheCut() {
        assertEquals("my project", DisplayWidth.truncate("my project", 10));
        assertEquals("my pr…", DisplayWidth.truncate("my project", 6));
        assertEquals("数据…", DisplayWidth.truncate("数据库迁移", 6));
        assertEquals("数据…", DisplayWidth.truncate("数据库迁移", 5));
        assertEquals("🚀…", DisplayWidth.truncate("🚀🚀🚀", 4));
        assertEquals("", DisplayWidth.truncate("abc", 0));
    }

    @Test
    void paddingCountsColumns() {
        assertEquals("数据  ", DisplayWidth.padRight("数据", 6));
        assertEquals("  数据", DisplayWidth.padLeft("数据", 6));
        assertEquals("toolong", DisplayWidth.padRight("toolong", 3));
    }
}
