package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.PlainSqlWriter;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the FTS5 search shows of its own: its snippet format, its failures on a raw connection. The
 * behaviour both engines share is the contract suite's ({@code core.SearchContractTest}).
 */
class MessageSearchTest {
    private final MessageSearch search = new SqliteMessageSearch();

    @TempDir
    Path dir;
    private Path file;
    private Connection connection;
    private Transaction reader;
    private PlainSqlWriter writer;

    @BeforeEach
    void open() throws SQLException {
        file = SearchDatabases.newDatabase(dir);
        connection = SearchDatabases.open(file);
        reader = SearchDatabases.reader(connection);
        writer = new PlainSqlWriter(connection);
    }

    @AfterEach
    void close() throws SQLException {
        writer.close();
        connection.close();
    }

    private List<Long> ids(SearchQuery query) {
        return SearchDatabases.search(reader, query).stream().map(SearchHit::id).toList();
    }

    private List<Long> sortedIds(SearchQuery query) {
        return SearchDatabases.search(reader, query).stream().map(SearchHit::id).sorted().toList();
    }

    // ------------------------------------------------------------------ what only FTS5 shows

    @Test
    void snippetShowsAboutFortyTokensAroundTheMatch() throws SQLException {
        writer.session("s", "cli", 1000);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            words.add(i == 50 ? "needle" : "w" + i);
        }
        writer.message("s", "user", String.join(" ", words), 1001);

        String snippet = search.search(reader, SearchQuery.of("needle")).get(0).snippet();
        assertTrue(snippet.startsWith("..."), snippet);
        assertTrue(snippet.endsWith("..."), snippet);
        assertTrue(snippet.contains(" >>>needle<<< "), snippet);
        String[] tokens = snippet.substring(3, snippet.length() - 3).trim().split(" ");
        assertEquals(40, tokens.length, snippet);
    }

    @Test
    void phraseAndPrefixAreHighlighted() throws SQLException {
        writer.session("s", "cli", 1000);
        writer.message("s", "user", "Deploying the database migration now", 1001);
        assertEquals(">>>Deploying<<< the database migration now", search.search(reader, SearchQuery.of("deploy*")).get(0).snippet());
        assertEquals("Deploying the >>>database migration<<< now",
                search.search(reader, SearchQuery.of("\"database migration\"")).get(0).snippet());
    }

    @Test
    void databaseFailuresReachTheStoreTyped() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE messages_fts");
        }
        try (StateRepository store = StateRepository.builder().path(file).migrate(false).build()) {
            HermesStateException failure = assertThrows(HermesStateException.class,
                    () -> store.searchMessages(SearchQuery.of("anything")));
            assertEquals(ErrorType.INTERNAL, failure.type());
            assertTrue(failure.getMessage().startsWith("Unexpected failure while searching messages: "), failure.getMessage());
            assertTrue(failure.getMessage().contains("no such table"), failure.getMessage());
            assertInstanceOf(SQLException.class, rootCause(failure));
        }
    }

    @Test
    void aFailingConnectionIsReportedAsItsSqlException() throws SQLException {
        reader.schema(); // a store knows its schema before its first search (the search's rules depend on it)
        connection.close();
        SQLException failure = assertThrows(SQLException.class, () -> search.search(reader, SearchQuery.of("anything")));
        assertTrue(failure.getMessage().contains("closed"), failure.getMessage());
    }

    @Test
    void worksOnAReadOnlyConnection() throws SQLException {
        writer.session("s", "cli", 1000);
        long id = writer.message("s", "user", "read only search", 1001);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA query_only = 1");
        }
        assertEquals(List.of(id), ids(SearchQuery.of("read")));
        assertEquals(List.of(), ids(SearchQuery.of("读")));
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
