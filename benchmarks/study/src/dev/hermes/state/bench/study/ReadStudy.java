package dev.hermes.state.bench.study;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hermes.state.bench.data.ReadSample;
import dev.hermes.state.bench.raw.RawJdbcStore;
import dev.hermes.state.bench.workload.W4Read;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;

/**
 * W4 layer by layer: the 200 READ-stream sessions read by the store and by raw-JDBC variants that each
 * add or remove one cost (column access method, read transaction, jOOQ's fetch), interleaved session
 * by session as the benchmark does, ROUNDS times. Prints per variant the median (min-max) over rounds
 * of W4's msgs/s (messages / sum of call times) and p50, and the median ratio of its msgs/s to the
 * benchmark's raw baseline of the same round.
 *
 * <p>Usage: ReadStudy DB ROUNDS [variant,variant...] (default: all). Open DB on a copy; nothing is written
 * except the store's own connection setup.
 */
public final class ReadStudy {
    static final String SQL = "SELECT role, content, tool_call_id, tool_calls, tool_name, reasoning, "
            + "reasoning_details, codex_reasoning_items FROM messages WHERE session_id = ? ORDER BY timestamp, id";
    private static final JsonFactory JSON = new JsonFactory();

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> wanted = args.length > 2 ? Arrays.asList(args[2].split(",")) : null;
        int sessions = args.length > 3 ? Integer.parseInt(args[3]) : 5000;
        List<String> ids = ReadSample.sessionIds(sessions);

        double[][] rates = null;
        double[][] p50s = null;
        double[][] p95s = null;
        double[][] ratios = null;
        List<String> names = null;
        // every round opens fresh connections (a cold page cache per variant, as W4 meets it after W1-W3);
        // round 0 is an untimed warm-up of the JIT
        for (int r = -1; r < rounds; r++) {
            List<AutoCloseable> open = new ArrayList<>();
            Map<String, W4Read.Read> variants = variants(db, open);
            if (wanted != null) {
                variants.keySet().retainAll(wanted);
            }
            names = new ArrayList<>(variants.keySet());
            if (rates == null) {
                rates = new double[names.size()][rounds];
                p50s = new double[names.size()][rounds];
                p95s = new double[names.size()][rounds];
                ratios = new double[names.size()][rounds];
            }
            List<W4Read.Result> results = W4Read.runInterleaved(ids, new ArrayList<>(variants.values()));
            for (AutoCloseable c : open) {
                c.close();
            }
            if (r < 0) {
                continue;
            }
            int rawIndex = names.indexOf("raw");
            for (int v = 0; v < names.size(); v++) {
                rates[v][r] = results.get(v).msgsPerS();
                p50s[v][r] = results.get(v).latencies().p50Ms();
                p95s[v][r] = results.get(v).latencies().p95Ms();
                ratios[v][r] = rawIndex < 0 ? Double.NaN : p50s[v][r] / p50s[rawIndex][r];
            }
        }
        System.out.printf("W4 layers: %d rounds x 200 reads (fresh connections each round), %s%n", rounds, db);
        System.out.printf("%-20s %28s %24s %24s %12s%n", "variant", "msgs/s median (min-max)", "p50 ms median (min-max)",
                "p95 ms median (min-max)", "p50 / raw");
        for (int v = 0; v < names.size(); v++) {
            System.out.printf("%-20s %28s %24s %24s %12s%n", names.get(v), spread(rates[v], "%,.0f"), spread(p50s[v], "%.3f"),
                    spread(p95s[v], "%.3f"), String.format("%.2f", median(ratios[v])));
        }
        System.exit(0);
    }

    static Map<String, W4Read.Read> variants(Path db, List<AutoCloseable> open) throws SQLException {
        StateRepository store = StateRepository.open(db);
        RawJdbcStore raw = RawJdbcStore.open(db);
        open.add(store);
        open.add(raw);
        Map<String, W4Read.Read> variants = new LinkedHashMap<>();
        variants.put("raw", raw::conversation);
        variants.put("ours", store::getMessagesAsConversation);
        variants.put("jdbc-step", new Plain(db, 0, open)::step);
        variants.put("jdbc-strings", new Plain(db, 0, open)::strings);
        variants.put("jdbc-bytes", new Plain(db, 0, open)::bytes);
        variants.put("jdbc-strings+tx", new Plain(db, 0, open)::stringsInTx);
        variants.put("jooq-fetch+tx", new Plain(db, 0, open)::jooqInTx);
        variants.put("jdbc-step+mmap", new Plain(db, 256L << 20, open)::step);
        variants.put("jdbc-strings+mmap", new Plain(db, 256L << 20, open)::strings);
        variants.put("jdbc-bytes+mmap", new Plain(db, 256L << 20, open)::bytes);
        variants.put("jdbc-bytes+tx+mmap", new Plain(db, 256L << 20, open)::bytesInTx);
        variants.put("jooq-fetch+tx+mmap", new Plain(db, 256L << 20, open)::jooqInTx);
        return variants;
    }

    /** A plain connection (the project's settings) with its own statements; mmap bytes > 0 sets PRAGMA mmap_size. */
    static final class Plain {
        final PreparedStatement select;
        final PreparedStatement begin;
        final PreparedStatement rollback;
        final PreparedStatement jooqSelect;
        final DSLContext dsl;
        final Field<?>[] fields = {MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_NAME,
                MESSAGES.TOOL_CALLS, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS};

        Plain(Path db, long mmap, List<AutoCloseable> open) throws SQLException {
            Connection connection = SqliteFile.open(db, RetryPolicy.HERMES, false);
            open.add(connection);
            try (java.sql.Statement s = connection.createStatement()) {
                if (mmap > 0) {
                    s.executeQuery("PRAGMA mmap_size = " + mmap).close();
                }
                s.execute("PRAGMA query_only = 1");
            }
            select = connection.prepareStatement(SQL);
            begin = connection.prepareStatement("BEGIN");
            rollback = connection.prepareStatement("ROLLBACK");
            jooqSelect = connection.prepareStatement("SELECT role, content, tool_call_id, tool_name, tool_calls, "
                    + "reasoning, reasoning_details, codex_reasoning_items FROM messages WHERE session_id = ? ORDER BY timestamp, id");
            dsl = DSL.using(connection, SQLDialect.SQLITE);
        }

        List<?> step(String id) throws SQLException {
            return ReadStudy.step(select, id);
        }

        List<?> strings(String id) throws SQLException {
            return ReadStudy.strings(select, id);
        }

        List<?> bytes(String id) throws SQLException {
            return ReadStudy.bytes(select, id);
        }

        List<?> stringsInTx(String id) throws Exception {
            return inTx(begin, rollback, () -> ReadStudy.strings(select, id));
        }

        List<?> bytesInTx(String id) throws Exception {
            return inTx(begin, rollback, () -> ReadStudy.bytes(select, id));
        }

        List<?> jooqInTx(String id) throws Exception {
            return inTx(begin, rollback, () -> jooq(dsl, jooqSelect, fields, id));
        }
    }

    interface Body {
        List<?> run() throws Exception;
    }

    static List<?> inTx(PreparedStatement begin, PreparedStatement rollback, Body body) throws Exception {
        begin.execute();
        try {
            return body.run();
        } finally {
            rollback.execute();
        }
    }

    static List<?> step(PreparedStatement select, String id) throws SQLException {
        select.setString(1, id);
        List<Object> rows = new ArrayList<>(40);
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                rows.add(Boolean.TRUE);
            }
        }
        return rows;
    }

    /** The store's mapping (Rows.chatMessage) straight from the JDBC result set, getString per column. */
    static List<ChatMessage> strings(PreparedStatement select, String id) throws SQLException {
        select.setString(1, id);
        List<ChatMessage> rows = new ArrayList<>(40);
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                rows.add(chat(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), rs.getString(8)));
            }
        }
        return rows;
    }

    /** As {@link #strings}, reading each text column with getBytes and decoding UTF-8 in Java. */
    static List<ChatMessage> bytes(PreparedStatement select, String id) throws SQLException {
        select.setString(1, id);
        List<ChatMessage> rows = new ArrayList<>(40);
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                rows.add(chat(text(rs, 1), text(rs, 2), text(rs, 3), text(rs, 4), text(rs, 5), text(rs, 6), text(rs, 7),
                        text(rs, 8)));
            }
        }
        return rows;
    }

    static String text(ResultSet rs, int column) throws SQLException {
        byte[] utf8 = rs.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    /** jOOQ's fetch of the result set into records of the generated fields (what CachedQuery.fetch does), then mapping. */
    static List<ChatMessage> jooq(DSLContext dsl, PreparedStatement select, Field<?>[] fields, String id) throws SQLException {
        select.setString(1, id);
        try (ResultSet rs = select.executeQuery()) {
            return dsl.fetch(rs, fields).map(row -> chat((String) row.get(0), (String) row.get(1), (String) row.get(2),
                    json(row, 4), (String) row.get(3), (String) row.get(5), json(row, 6), json(row, 7)));
        }
    }

    private static String json(Record row, int index) {
        Object value = row.get(index);
        return value == null ? null : ((JSON) value).data();
    }

    private static final Object NOT_JSON = new Object();

    /** Rows.chatMessage's rules, on plain strings. */
    static ChatMessage chat(String role, String content, String toolCallId, String toolCallsText, String toolName,
                            String reasoning, String reasoningDetailsText, String codexText) {
        boolean assistant = "assistant".equals(role);
        String reasoningDetails = assistant ? emptyToNull(reasoningDetailsText) : null;
        String codex = assistant ? emptyToNull(codexText) : null;
        String toolCallsJson = emptyToNull(toolCallsText);
        Object toolCalls = decodeOr(toolCallsJson, NOT_JSON);
        return new ChatMessage(role, content, emptyToNull(toolCallId), emptyToNull(toolName),
                toolCalls == NOT_JSON ? null : toolCalls, assistant ? emptyToNull(reasoning) : null,
                decodeOr(reasoningDetails, null), decodeOr(codex, null), reasoningDetails != null, codex != null,
                toolCallsJson != null && toolCalls != NOT_JSON);
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static Object decodeOr(String text, Object fallback) {
        if (text == null) {
            return null;
        }
        try (JsonParser parser = JSON.createParser(text)) {
            Object value = read(parser, parser.nextToken());
            return parser.nextToken() == null ? value : fallback;
        } catch (IOException | RuntimeException notJson) {
            return fallback;
        }
    }

    private static Object read(JsonParser json, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken next = json.nextToken(); next != JsonToken.END_OBJECT; next = json.nextToken()) {
                    String key = json.currentName();
                    map.put(key, read(json, json.nextToken()));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (JsonToken next = json.nextToken(); next != JsonToken.END_ARRAY; next = json.nextToken()) {
                    list.add(read(json, next));
                }
                return list;
            }
            case VALUE_STRING -> {
                return json.getText();
            }
            case VALUE_NUMBER_INT -> {
                return json.getNumberValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return json.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected " + token);
        }
    }

    static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(format, median(values)) + " (" + String.format(format, sorted[0]) + "-"
                + String.format(format, sorted[sorted.length - 1]) + ")";
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
