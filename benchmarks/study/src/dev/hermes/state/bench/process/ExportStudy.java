package dev.hermes.state.bench.process;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * W6 prototypes (issue 12 study), each run in a fresh JVM like W6's child (-Xmx64m): the same JSONL
 * writer as {@link ExportProcess}, fed by
 * <ul>
 *   <li>store: StateRepository.exportAll (what W6 measures);
 *   <li>jdbc: the same two statements by hand (sessions newest first; per session its messages), rows mapped
 *       straight from the ResultSet with Rows' rules, no jOOQ records;
 *   <li>jdbc-bytes: as jdbc, text columns read with getBytes + new String(UTF-8);
 *   <li>join: one streaming statement, every message joined to its session in export order.
 * </ul>
 * Prints total seconds and the output's size; compare outputs with sha256sum.
 * Usage: ExportStudy store|jdbc|jdbc-bytes|join DB OUT.
 */
public final class ExportStudy {
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    private static final JsonFactory PARSER = new JsonFactory();
    private static final String SESSION_COLUMNS = "id, source, user_id, model, model_config, system_prompt, parent_session_id, "
            + "started_at, ended_at, end_reason, message_count, tool_call_count, input_tokens, output_tokens, cache_read_tokens, "
            + "cache_write_tokens, reasoning_tokens, billing_provider, billing_base_url, billing_mode, estimated_cost_usd, "
            + "actual_cost_usd, cost_status, cost_source, pricing_version, title";
    private static final String MESSAGE_COLUMNS = "id, session_id, role, content, tool_call_id, tool_calls, tool_name, "
            + "timestamp, token_count, finish_reason, reasoning, reasoning_details, codex_reasoning_items";

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path db = Path.of(args[1]);
        Path out = Path.of(args[2]);
        long start = System.nanoTime();
        long[] counts = new long[2];
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16);
             JsonGenerator json = JSON.getFactory().createGenerator(file, JsonEncoding.UTF8)) {
            json.setRootValueSeparator(null);
            Consumer<SessionExport> sink = export -> {
                ExportProcess.write(json, export);
                counts[0]++;
                counts[1] += export.messages().size();
            };
            switch (mode) {
                case "store" -> {
                    try (StateRepository store = StateRepository.open(db)) {
                        store.exportAll(null, sink);
                    }
                }
                case "jdbc" -> jdbc(db, sink, false);
                case "jdbc-bytes" -> jdbc(db, sink, true);
                case "join" -> join(db, sink);
                default -> throw new IllegalArgumentException(mode);
            }
            json.flush();
        }
        System.out.printf("%s: %d sessions, %d messages, total %.2f s, %d bytes, peak RSS %.0f MB%n", mode, counts[0], counts[1],
                (System.nanoTime() - start) / 1e9, Files.size(out), ProcStatus.peakRssMb());
    }

    private static void jdbc(Path db, Consumer<SessionExport> sink, boolean bytes) throws SQLException {
        try (Connection c = SqliteFile.open(db, RetryPolicy.HERMES, false);
             Statement begin = c.createStatement()) {
            begin.execute("BEGIN");
            PreparedStatement messages = c.prepareStatement("SELECT " + MESSAGE_COLUMNS
                    + " FROM messages WHERE session_id = ? ORDER BY timestamp, id");
            try (PreparedStatement sessions = c.prepareStatement("SELECT " + SESSION_COLUMNS
                    + " FROM sessions ORDER BY started_at DESC, id DESC");
                 ResultSet rs = sessions.executeQuery()) {
                while (rs.next()) {
                    Session session = session(rs, bytes);
                    messages.setString(1, session.id());
                    List<Message> list = new ArrayList<>();
                    try (ResultSet m = messages.executeQuery()) {
                        while (m.next()) {
                            list.add(message(m, 0, bytes));
                        }
                    }
                    sink.accept(new SessionExport(session, list));
                }
            }
            begin.execute("ROLLBACK");
        }
    }

    private static void join(Path db, Consumer<SessionExport> sink) throws SQLException {
        try (Connection c = SqliteFile.open(db, RetryPolicy.HERMES, false);
             PreparedStatement all = c.prepareStatement("SELECT " + prefixed("s", SESSION_COLUMNS) + ", "
                     + prefixed("m", MESSAGE_COLUMNS) + " FROM sessions s LEFT JOIN messages m ON m.session_id = s.id "
                     + "ORDER BY s.started_at DESC, s.id DESC, m.timestamp, m.id");
             ResultSet rs = all.executeQuery()) {
            Session current = null;
            List<Message> list = new ArrayList<>();
            while (rs.next()) {
                String id = rs.getString(1);
                if (current == null || !current.id().equals(id)) {
                    if (current != null) {
                        sink.accept(new SessionExport(current, list));
                    }
                    current = session(rs, false);
                    list = new ArrayList<>();
                }
                rs.getLong(27);
                if (!rs.wasNull()) {
                    list.add(message(rs, 26, false));
                }
            }
            if (current != null) {
                sink.accept(new SessionExport(current, list));
            }
        }
    }

    private static String prefixed(String alias, String columns) {
        StringBuilder b = new StringBuilder();
        for (String column : columns.split(", ")) {
            b.append(b.length() == 0 ? "" : ", ").append(alias).append('.').append(column);
        }
        return b.toString();
    }

    private static Session session(ResultSet rs, boolean bytes) throws SQLException {
        return new Session(text(rs, 1, bytes), text(rs, 2, bytes), text(rs, 3, bytes), text(rs, 4, bytes), text(rs, 5, bytes),
                text(rs, 6, bytes), text(rs, 7, bytes), time(rs, 8), time(rs, 9), text(rs, 10, bytes), rs.getLong(11),
                rs.getLong(12), rs.getLong(13), rs.getLong(14), rs.getLong(15), rs.getLong(16), rs.getLong(17),
                text(rs, 18, bytes), text(rs, 19, bytes), text(rs, 20, bytes), nullableDouble(rs, 21),
                nullableDouble(rs, 22), text(rs, 23, bytes), text(rs, 24, bytes), text(rs, 25, bytes), text(rs, 26, bytes));
    }

    private static Message message(ResultSet rs, int o, boolean bytes) throws SQLException {
        String toolCalls = text(rs, o + 6, bytes);
        Object decoded = toolCalls == null || toolCalls.isEmpty() ? toolCalls : decodeOrEmptyList(toolCalls);
        long tokenCount = rs.getLong(o + 9);
        Long tokens = rs.wasNull() ? null : tokenCount;
        return new Message(rs.getLong(o + 1), text(rs, o + 2, bytes), text(rs, o + 3, bytes), text(rs, o + 4, bytes),
                text(rs, o + 5, bytes), decoded, text(rs, o + 7, bytes), time(rs, o + 8), tokens, text(rs, o + 10, bytes),
                text(rs, o + 11, bytes), text(rs, o + 12, bytes), text(rs, o + 13, bytes));
    }

    private static String text(ResultSet rs, int column, boolean bytes) throws SQLException {
        if (!bytes) {
            return rs.getString(column);
        }
        byte[] utf8 = rs.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    private static Double nullableDouble(ResultSet rs, int column) throws SQLException {
        double value = rs.getDouble(column);
        return rs.wasNull() ? null : value;
    }

    /** EpochSecondsConverter.from: microseconds kept. */
    private static Instant time(ResultSet rs, int column) throws SQLException {
        double seconds = rs.getDouble(column);
        if (rs.wasNull()) {
            return null;
        }
        long micros = Math.round(seconds * 1_000_000L);
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    private static Object decodeOrEmptyList(String text) {
        try (JsonParser parser = PARSER.createParser(text)) {
            Object value = JSON.readValue(parser, Object.class);
            return parser.nextToken() == null ? value : List.of();
        } catch (Exception notJson) {
            return List.of();
        }
    }
}
