package dev.hermes.state.bench.study;

import dev.hermes.state.bench.data.SearchCases;
import dev.hermes.state.bench.data.SearchCases.Category;
import dev.hermes.state.bench.data.SearchCases.SearchCase;
import dev.hermes.state.bench.raw.RawJdbcStore;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W2 layer by layer, on one file: the store's search, the benchmark's raw baseline (same one-statement
 * SQL), Hermes' two-step SQL (page query, then a context query per hit, see py/w2_search.py), and the
 * engine alone (FTS5 MATCH ORDER BY rank LIMIT 20, and count(*) without ranking). Each query of the 60 runs
 * on every variant in turn; after one warm-up pass, ROUNDS passes. Per variant and category: the median over
 * rounds of the category's p50 (ms). Usage: SearchStudy DB ROUNDS [all|variant,...] [category,...]. Read-only use of DB.
 */
public final class SearchStudy {
    static final String ENGINE_RANK = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20";
    static final String ENGINE_COUNT = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?";
    /** Hermes v6's page query as docs/behaviour.md#search describes it (full content returned, context fetched afterwards). */
    static final String HERMES_PAGE = "SELECT m.id, m.session_id, m.role, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) "
            + "AS snippet, m.content, m.timestamp, m.tool_name, s.source, s.model, s.started_at AS session_started "
            + "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id "
            + "WHERE messages_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?";
    static final String PREVIOUS = "SELECT role, content FROM messages WHERE session_id = ? AND (timestamp, id) < (?, ?) "
            + "ORDER BY timestamp DESC, id DESC LIMIT 1";
    static final String NEXT = "SELECT role, content FROM messages WHERE session_id = ? AND (timestamp, id) > (?, ?) "
            + "ORDER BY timestamp, id LIMIT 1";

    /** The prototype's page: the store's page columns, ordered by rank without selecting it (FTS5 then ranks ~30% faster). */
    static final String PROTO_PAGE = "SELECT m.id, m.session_id, m.role, snippet(messages_fts, 0, '>>>', '<<<', '...', 40), "
            + "substr(m.content, 1, 200), m.timestamp, m.tool_name, s.source, s.model, s.started_at "
            + "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id "
            + "WHERE messages_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?";
    /** The prototype's context: every hit's neighbours in one statement, the page passed as one JSON array. */
    static final String PROTO_CONTEXT = "WITH page(id, session_id, ts) AS (SELECT json_extract(value, '$[0]'), "
            + "json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)) "
            + "SELECT page.id, previous.role, substr(previous.content, 1, 200), next.role, substr(next.content, 1, 200) FROM page "
            + "LEFT JOIN messages previous ON previous.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) < (page.ts, page.id) ORDER BY n.timestamp DESC, n.id DESC LIMIT 1) "
            + "LEFT JOIN messages next ON next.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) > (page.ts, page.id) ORDER BY n.timestamp, n.id LIMIT 1)";

    interface Search {
        int run(String query) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> wanted = args.length > 2 && !args[2].equals("all") ? Arrays.asList(args[2].split(",")) : null;
        List<String> categories = args.length > 3 ? Arrays.asList(args[3].split(",")) : null;

        Connection plain = SqliteFile.open(db, RetryPolicy.HERMES, false);
        try (Statement s = plain.createStatement(); ResultSet v = s.executeQuery("select sqlite_version()")) {
            v.next();
            System.out.println("SQLite " + v.getString(1) + " (sqlite-jdbc " + plain.getMetaData().getDriverVersion() + ")");
        }
        PreparedStatement rank = plain.prepareStatement(ENGINE_RANK);
        PreparedStatement count = plain.prepareStatement(ENGINE_COUNT);
        PreparedStatement page = plain.prepareStatement(HERMES_PAGE);
        PreparedStatement previous = plain.prepareStatement(PREVIOUS);
        PreparedStatement next = plain.prepareStatement(NEXT);

        Map<String, Search> variants = new LinkedHashMap<>();
        variants.put("engine-count", q -> single(count, q));
        variants.put("engine-rank", q -> rows(rank, q));
        variants.put("hermes-sql", q -> hermes(page, previous, next, q));
        PreparedStatement protoPage = plain.prepareStatement(PROTO_PAGE);
        PreparedStatement protoContext = plain.prepareStatement(PROTO_CONTEXT);
        variants.put("proto-2stmt", q -> proto(protoPage, protoContext, q));
        if (wanted == null || wanted.contains("raw") || wanted.contains("ours")) {
            RawJdbcStore raw = RawJdbcStore.open(db);
            StateRepository store = StateRepository.open(db);
            variants.put("raw", q -> raw.search(q, 20).size());
            variants.put("ours", q -> store.searchMessages(SearchQuery.builder(q).limit(20).build()).size());
        }
        if (wanted != null) {
            variants.keySet().retainAll(wanted);
        }
        List<String> names = new ArrayList<>(variants.keySet());
        List<Search> searches = new ArrayList<>(variants.values());
        // [variant][category] -> p50 per round
        List<Map<Category, double[]>> p50 = new ArrayList<>();
        for (int v = 0; v < names.size(); v++) {
            Map<Category, double[]> byCategory = new EnumMap<>(Category.class);
            for (Category c : Category.values()) {
                byCategory.put(c, new double[rounds]);
            }
            p50.add(byCategory);
        }
        for (int round = -1; round < rounds; round++) {
            List<Map<Category, List<Double>>> times = new ArrayList<>();
            for (int v = 0; v < names.size(); v++) {
                times.add(new EnumMap<>(Category.class));
            }
            int call = 0;
            for (SearchCase c : SearchCases.ALL) {
                if (categories != null && !categories.contains(c.category().key())) {
                    continue;
                }
                for (int turn = 0; turn < names.size(); turn++) {
                    int v = (turn + call) % names.size();
                    long before = System.nanoTime();
                    searches.get(v).run(c.query());
                    double ms = (System.nanoTime() - before) / 1e6;
                    times.get(v).computeIfAbsent(c.category(), k -> new ArrayList<>()).add(ms);
                }
                call++;
            }
            if (round >= 0) {
                for (int v = 0; v < names.size(); v++) {
                    for (Category c : times.get(v).keySet()) {
                        p50.get(v).get(c)[round] = p50(times.get(v).get(c));
                    }
                }
            }
        }
        System.out.printf("W2 layers, %d rounds (median over rounds of the category p50, ms; min-max)%n", rounds);
        System.out.printf("%-14s", "variant");
        for (Category c : Category.values()) {
            System.out.printf(" %22s", c.key());
        }
        System.out.println();
        for (int v = 0; v < names.size(); v++) {
            System.out.printf("%-14s", names.get(v));
            for (Category c : Category.values()) {
                System.out.printf(" %22s", ReadStudy.spread(p50.get(v).get(c), "%.2f"));
            }
            System.out.println();
        }
        System.exit(0);
    }

    static double p50(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[(int) Math.ceil(0.5 * sorted.length) - 1];
    }

    static int single(PreparedStatement statement, String query) throws SQLException {
        statement.setString(1, query);
        try (ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static int rows(PreparedStatement statement, String query) throws SQLException {
        statement.setString(1, query);
        int n = 0;
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                rs.getLong(1);
                n++;
            }
        }
        return n;
    }

    /** Two statements: the page in rank order (rank not selected), then all neighbours at once. */
    static int proto(PreparedStatement page, PreparedStatement context, String query) throws SQLException {
        page.setString(1, query);
        page.setInt(2, 20);
        page.setInt(3, 0);
        List<Object[]> hits = new ArrayList<>(20);
        StringBuilder json = new StringBuilder("[");
        try (ResultSet rs = page.executeQuery()) {
            while (rs.next()) {
                Object[] hit = {rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getDouble(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getDouble(10), null};
                hits.add(hit);
                if (json.length() > 1) {
                    json.append(',');
                }
                json.append('[').append(hit[0]).append(",\"").append(hit[1]).append("\",").append(hit[5]).append(']');
            }
        }
        if (hits.isEmpty()) {
            return 0;
        }
        context.setString(1, json.append(']').toString());
        int found = 0;
        try (ResultSet rs = context.executeQuery()) {
            while (rs.next()) {
                rs.getLong(1);
                rs.getString(2);
                rs.getString(3);
                rs.getString(4);
                rs.getString(5);
                found++;
            }
        }
        if (found != hits.size()) {
            throw new IllegalStateException("context rows " + found + " != hits " + hits.size());
        }
        return hits.size();
    }

    /** Hermes' shape: the page (full content), then per hit its previous and next message, contents cut to 200. */
    static int hermes(PreparedStatement page, PreparedStatement previous, PreparedStatement next, String query)
            throws SQLException {
        page.setString(1, query);
        page.setInt(2, 20);
        page.setInt(3, 0);
        List<Object[]> hits = new ArrayList<>();
        try (ResultSet rs = page.executeQuery()) {
            while (rs.next()) {
                hits.add(new Object[]{rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getDouble(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getDouble(10)});
            }
        }
        for (Object[] hit : hits) {
            List<String[]> context = new ArrayList<>(3);
            for (PreparedStatement neighbour : new PreparedStatement[]{previous, next}) {
                neighbour.setString(1, (String) hit[1]);
                neighbour.setDouble(2, (Double) hit[5]);
                neighbour.setLong(3, (Long) hit[0]);
                try (ResultSet rs = neighbour.executeQuery()) {
                    if (rs.next()) {
                        String content = rs.getString(2);
                        context.add(new String[]{rs.getString(1), content == null ? "" : content.substring(0, Math.min(200, content.length()))});
                    }
                }
            }
        }
        return hits.size();
    }
}
