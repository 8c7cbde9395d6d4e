package dev.hermes.state.migrations;

import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * PostgreSQL's {@code messages_search_tokens} splits and folds text exactly as the bundled SQLite's
 * FTS5 does: every code point of planes 0-2 (every assigned letter lies there), every 61st above,
 * inside a token and at its start; and whole sentences. With {@code -Dhermes.test.unicode=all} every
 * code point. When this fails after an upgrade of sqlite-jdbc, regenerate the changeset's function
 * with {@link Unicode61#main}.
 */
class PostgresTokenizerTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private Connection server;

    @BeforeEach
    void migrate() throws SQLException {
        Migrator.create().migrate(PostgresLocation.parse(postgres.url()).withSchema(postgres.schema()));
        server = postgres.connect();
        try (Statement statement = server.createStatement()) {
            statement.execute("SET search_path TO " + postgres.schema());
        }
    }

    @Test
    void everyCodePointIsSplitAndFoldedAsSqliteDoes() throws SQLException {
        boolean all = "all".equals(System.getProperty("hermes.test.unicode"));
        List<String> texts = new ArrayList<>();
        StringBuilder block = new StringBuilder();
        int inBlock = 0;
        for (int codePoint = 1; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            if (!Unicode61.probed(codePoint) || !(all || codePoint <= 0x2FFFF || codePoint % 61 == 0
                    || codePoint == Character.MAX_CODE_POINT)) {
                continue;
            }
            String c = Unicode61.chars(codePoint);
            block.append('a').append(c).append("b x ").append(c).append("y | ");
            if (++inBlock == Unicode61.BLOCK) {
                texts.add(block.toString());
                block.setLength(0);
                inBlock = 0;
            }
        }
        texts.add(block.toString());
        compare(texts);
    }

    @Test
    void sentencesAreSplitAndFoldedAsSqliteDoes() throws SQLException {
        compare(List.of(
                "Hello, World! Café naïve foo@bar.com C++ what's -v a:b P2.2 chat-send #438 $HOME 100% x_y",
                "数据库迁移问题。下一步：Python数据 テスト データベース 한국어 검색",
                "ÉCOLE ΟΔΟΣ Straße ǖ ế İstanbul ǅ ﬁ ＡＢＣ ①② ½ Ⅻ \uE000 emoji 🎉🚀 tab\tnew\nline",
                "a\u0301b e\u0301 \u0301x  ",
                "x".repeat(600) + " end"));
    }

    private void compare(List<String> texts) throws SQLException {
        List<List<String>> expected;
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            expected = Unicode61.sqliteTokens(sqlite, texts);
        }
        // SQLite keeps a long token whole; PostgreSQL's words are cut at 500 characters
        expected = expected.stream().map(tokens -> tokens.stream()
                .map(token -> token.codePointCount(0, token.length()) > 500
                        ? token.substring(0, token.offsetByCodePoints(0, 500)) : token).toList()).toList();
        List<List<String>> actual = new ArrayList<>();
        try (PreparedStatement tokenize = server.prepareStatement("SELECT messages_search_tokens(?)")) {
            for (String text : texts) {
                tokenize.setString(1, text);
                try (ResultSet row = tokenize.executeQuery()) {
                    row.next();
                    Array tokens = row.getArray(1);
                    actual.add(Arrays.asList((String[]) tokens.getArray()));
                }
            }
        }
        for (int i = 0; i < texts.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "tokens of text " + i);
        }
    }
}
