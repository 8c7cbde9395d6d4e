package dev.hermes.state.serve;

import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.model.StoreStats;
import dev.hermes.state.core.model.UsageQuery;
import dev.hermes.state.core.model.UsageReport;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON API under {@code /api/}: the agent's dashboard's paths, parameters and field names where they
 * overlap (a client written for it works here), and this server's additions (keyset cursors, filters the
 * dashboard lacks, rendered HTML, lineage, message-level search). Every answer is read from the store
 * at request time through core's public API; no state is kept between requests.
 */
final class Api {
    /** The sources whose sessions are automation (scheduled jobs), not chats. */
    static final Set<String> AUTOMATION_SOURCES = Set.of("cron");

    private static final Pattern SESSION_PATH = Pattern.compile("/api/sessions/([^/]+)(/messages|/export|/lineage)?");
    private static final Pattern SEARCH_TOKEN = Pattern.compile("\"[^\"]*\"|\\S+");

    private final StateRepository store;
    private final Clock clock;
    private final HtmlCache html = new HtmlCache();

    Api(StateRepository store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The answer to a GET of {@code path}, or empty for a path that is not the API's. */
    Optional<Object> get(String path, Params params) {
        return Optional.ofNullable(switch (path) {
            case "/api/sessions" -> sessions(params);
            case "/api/sessions/search" -> searchSessions(params);
            case "/api/sessions/stats" -> stats(params);
            case "/api/search" -> searchMessages(params);
            case "/api/analytics/usage" -> usage(params);
            case "/api/store" -> storeInfo(params);
            default -> sessionPath(path, params);
        });
    }

    private @Nullable Object sessionPath(String path, Params params) {
        Matcher matcher = SESSION_PATH.matcher(path);
        if (!matcher.matches()) {
            return null;
        }
        String id = matcher.group(1);
        String tail = matcher.group(2);
        if (tail == null) {
            return session(id, params);
        }
        return switch (tail) {
            case "/messages" -> messages(id, params);
            case "/export" -> export(id, params);
            default -> lineage(id, params);
        };
    }

    // ------------------------------------------------------------------ sessions

    private Object sessions(Params params) {
        params.only(Set.of("limit", "offset", "cursor", "min_messages", "archived", "order", "source",
                "exclude_sources", "cwd_prefix", "model", "from", "to", "kind", "q"));
        int limit = params.integer("limit", 20, 1, 500);
        int offset = params.integer("offset", 0, 0, Integer.MAX_VALUE);
        String cursor = params.text("cursor");
        if (cursor != null && offset > 0) {
            throw ApiException.badRequest("Give either cursor or offset, not both");
        }
        int minMessages = params.integer("min_messages", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
        String archived = params.choice("archived", "exclude", Set.of("exclude", "only", "include"));
        String q = params.text("q");
        String order = params.choice("order", q != null ? "recent" : "created", Set.of("created", "recent"));
        if (q != null && order.equals("created")) {
            throw ApiException.badRequest("q searches ids and titles in order=recent only");
        }
        String kind = params.choice("kind", "all", Set.of("all", "chats", "automation"));
        String source = params.text("source");
        List<String> exclude = new ArrayList<>(params.list("exclude_sources"));
        if (kind.equals("chats")) {
            exclude.addAll(AUTOMATION_SOURCES);
        } else if (kind.equals("automation")) {
            if (source != null && !AUTOMATION_SOURCES.contains(source)) {
                throw ApiException.badRequest("source " + source + " is not an automation source");
            }
            if (source == null) {
                source = AUTOMATION_SOURCES.iterator().next();
            }
        }
        Instant from = params.instant("from", false);
        Instant to = params.instant("to", true);
        if (from != null && to != null && !from.isBefore(to)) {
            throw ApiException.badRequest("from must be before to");
        }
        String model = params.text("model");
        String cwd = params.text("cwd_prefix");
        ListSessionsQuery query = ListSessionsQuery.builder()
                .source(source).excludeSources(exclude).cwdPrefix(cwd).limit(limit).offset(offset)
                .minMessageCount(Math.max(0, minMessages))
                .includeArchived(archived.equals("include")).archivedOnly(archived.equals("only"))
                .orderByLastActive(order.equals("recent")).searchQuery(q)
                .model(model).startedBetween(from, to)
                .build();
        List<RichSession> rows;
        String next = null;
        if (offset > 0) {
            rows = store.listSessionsRich(query);
        } else {
            Page<RichSession> page = store.listSessionsRichPage(query, cursor);
            rows = page.items();
            next = page.nextCursor().orElse(null);
        }
        long total = q != null ? -1 : store.sessionCount(SessionCountQuery.builder()
                .source(source).excludeSources(exclude).cwdPrefix(cwd).minMessageCount(Math.max(0, minMessages))
                .includeArchived(archived.equals("include")).archivedOnly(archived.equals("only"))
                .excludeChildren(true).model(model).startedBetween(from, to).build());
        Instant now = clock.instant();
        List<Map<String, @Nullable Object>> sessions = new ArrayList<>(rows.size());
        rows.forEach(row -> sessions.add(Shapes.listed(row, now)));
        Map<String, @Nullable Object> answer = new LinkedHashMap<>();
        answer.put("sessions", sessions);
        answer.put("total", total < 0 ? null : total);
        answer.put("limit", limit);
        answer.put("offset", offset);
        answer.put("next_cursor", next);
        return answer;
    }

    private Object session(String idOrPrefix, Params params) {
        params.only(Set.of());
        Session session = resolve(idOrPrefix);
        return SessionRows.of(session);
    }

    private Object messages(String idOrPrefix, Params params) {
        params.only(Set.of("include_inactive", "follow", "after_id", "limit"));
        boolean inactive = params.flag("include_inactive", false);
        long afterId = params.integer("after_id", -1, -1, Integer.MAX_VALUE);
        int limit = params.integer("limit", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        boolean follow = params.flag("follow", true);
        String id = resolve(idOrPrefix).id();
        String shown = follow ? store.resolveResumeSessionId(id) : id;
        List<Message> messages = store.getMessages(shown, inactive);
        boolean v17 = store.schemaRules().atLeast(SchemaRules.V17);
        List<Map<String, @Nullable Object>> rows = new ArrayList<>(messages.size());
        boolean more = false;
        for (Message m : messages) {
            if (m.id() > afterId) {
                if (rows.size() == limit) {
                    more = true;
                    break;
                }
                rows.add(Shapes.message(m, v17, html::of));
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session_id", shown);
        answer.put("messages", rows);
        answer.put("has_more", more);
        return answer;
    }

    private Object export(String idOrPrefix, Params params) {
        params.only(Set.of());
        String id = resolve(idOrPrefix).id();
        SessionExport export = store.exportSession(id)
                .orElseThrow(() -> ApiException.notFound("Session not found"));
        boolean v17 = store.schemaRules().atLeast(SchemaRules.V17);
        Map<String, @Nullable Object> answer = SessionRows.of(export.session());
        List<Map<String, @Nullable Object>> rows = new ArrayList<>(export.messages().size());
        for (Message m : export.messages()) {
            Map<String, @Nullable Object> row = Shapes.message(m, v17);
            row.remove("content_html");
            rows.add(row);
        }
        answer.put("messages", rows);
        return new Attachment(export.session().id() + ".json", answer);
    }

    /**
     * The session's place among its relatives: its ancestors up to the root, and the root's whole tree,
     * each session with how it came from its parent: {@code compression} (the conversation continued
     * after its parent was compressed), {@code branch} (a /branch), {@code delegate} (a subagent run), or
     * {@code child} (any other parent link, e.g. a run started while its parent was still live).
     */
    private Object lineage(String idOrPrefix, Params params) {
        params.only(Set.of());
        Session session = resolve(idOrPrefix);
        List<LineageNode> ancestors = store.getAncestors(session.id());
        String rootId = ancestors.isEmpty() ? session.id() : ancestors.get(ancestors.size() - 1).session().id();
        List<LineageNode> tree = store.getLineageTree(rootId);
        Map<String, Session> byId = new HashMap<>();
        tree.forEach(node -> byId.put(node.session().id(), node.session()));
        ancestors.forEach(node -> byId.put(node.session().id(), node.session()));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session_id", session.id());
        answer.put("root_id", rootId);
        answer.put("compression_tip", store.getCompressionTip(session.id()));
        List<Map<String, @Nullable Object>> up = new ArrayList<>();
        ancestors.forEach(node -> up.add(lineageNode(node, byId)));
        answer.put("ancestors", up);
        List<Map<String, @Nullable Object>> all = new ArrayList<>();
        tree.forEach(node -> all.add(lineageNode(node, byId)));
        answer.put("tree", all);
        return answer;
    }

    private static Map<String, @Nullable Object> lineageNode(LineageNode node, Map<String, Session> byId) {
        Session s = node.session();
        Map<String, @Nullable Object> row = new LinkedHashMap<>();
        row.put("id", s.id());
        row.put("parent_session_id", s.parentSessionId());
        row.put("depth", node.depth());
        row.put("relation", relation(s, s.parentSessionId() == null ? null : byId.get(s.parentSessionId())));
        row.put("title", s.title());
        row.put("source", s.source());
        row.put("model", s.model());
        row.put("started_at", s.startedAt());
        row.put("ended_at", s.endedAt());
        row.put("end_reason", s.endReason());
        row.put("message_count", s.messageCount());
        return row;
    }

    static @Nullable String relation(Session child, @Nullable Session parent) {
        if (child.parentSessionId() == null) {
            return null;
        }
        Map<?, ?> config = modelConfig(child);
        if (config.containsKey("_delegate_from") || "delegate_complete".equals(child.endReason())) {
            return "delegate"; // files before 16 carry no marker: the run's own end says it
        }
        if (config.containsKey("_branched_from")) {
            return "branch";
        }
        Instant parentEnded = parent == null ? null : parent.endedAt();
        if (parent != null && "compression".equals(parent.endReason()) && parentEnded != null
                && !child.startedAt().isBefore(parentEnded)) {
            return "compression"; // the agent's compression edge: begun once the parent had been compressed
        }
        return "child";
    }

    private static Map<?, ?> modelConfig(Session session) {
        String text = session.modelConfig();
        if (text == null || text.isBlank()) {
            return Map.of();
        }
        try {
            return PythonJson.parse(text) instanceof Map<?, ?> map ? map : Map.of();
        } catch (RuntimeException notJson) {
            return Map.of();
        }
    }

    private Session resolve(String idOrPrefix) {
        if (idOrPrefix.isBlank() || idOrPrefix.length() > 512) {
            throw ApiException.notFound("Session not found");
        }
        return store.resolveSessionId(idOrPrefix).flatMap(store::getSession)
                .orElseThrow(() -> ApiException.notFound("Session not found"));
    }

    // ------------------------------------------------------------------ search

    /**
     * The dashboard's search: sessions whose id contains the text first, then full-text hits, one per
     * conversation (a compression chain counts once, shown as its tip), each with its best snippet.
     */
    private Object searchSessions(Params params) {
        params.only(Set.of("q", "limit"));
        String q = params.string("q");
        int limit = Math.max(1, Math.min(params.integer("limit", 20, Integer.MIN_VALUE, Integer.MAX_VALUE), 100));
        Map<String, Object> answer = new LinkedHashMap<>();
        List<Map<String, @Nullable Object>> results = new ArrayList<>();
        answer.put("results", results);
        if (q == null || q.isBlank()) {
            return answer;
        }
        Map<String, String> roots = new HashMap<>();
        Map<String, String> tips = new HashMap<>();
        Map<String, Map<String, @Nullable Object>> seen = new LinkedHashMap<>();
        for (RichSession row : store.searchSessionsById(q, limit, true)) {
            String preview = row.preview().strip();
            Map<String, @Nullable Object> hit = new LinkedHashMap<>();
            hit.put("snippet", preview.isEmpty() ? "Session ID: " + row.session().id() : preview);
            hit.put("role", null);
            hit.put("source", row.session().source());
            hit.put("model", row.session().model());
            hit.put("session_started", row.session().startedAt());
            hit.put("message_id", null);
            addLineageResult(row.session().id(), hit, seen, roots, tips, limit);
        }
        List<SearchHit> hits = store.searchMessages(SearchQuery.builder(prefixQuery(q))
                .limit(Math.max(limit * 5, 50)).build());
        for (SearchHit h : hits) {
            if (seen.size() >= limit) {
                break;
            }
            Map<String, @Nullable Object> hit = new LinkedHashMap<>();
            hit.put("snippet", h.snippet());
            hit.put("role", h.role());
            hit.put("source", h.source());
            hit.put("model", h.model());
            hit.put("session_started", h.sessionStarted());
            hit.put("message_id", h.id());
            addLineageResult(h.sessionId(), hit, seen, roots, tips, limit);
        }
        for (Map<String, @Nullable Object> hit : seen.values()) {
            hit.put("snippet_html", snippetHtml(String.valueOf(hit.get("snippet"))));
            results.add(hit);
        }
        return answer;
    }

    private void addLineageResult(String sessionId, Map<String, @Nullable Object> hit,
                                  Map<String, Map<String, @Nullable Object>> seen, Map<String, String> roots,
                                  Map<String, String> tips, int limit) {
        String root = compressionRoot(sessionId, roots);
        if (seen.containsKey(root) || seen.size() >= limit) {
            return;
        }
        String tip = tips.computeIfAbsent(root, store::getCompressionTip);
        Map<String, @Nullable Object> result = new LinkedHashMap<>();
        result.put("session_id", tip);
        result.putAll(hit);
        result.put("title", store.getSessionTitle(tip).orElse(null));
        result.put("lineage_root", root);
        result.put("hit_session_id", sessionId);
        seen.put(root, result);
    }

    /** The start of the session's compression chain: up through parents that ended in compression before it began. */
    private String compressionRoot(String sessionId, Map<String, String> cache) {
        String known = cache.get(sessionId);
        if (known != null) {
            return known;
        }
        List<String> walked = new ArrayList<>();
        String current = sessionId;
        String root = sessionId;
        while (true) {
            if (walked.contains(current)) {
                root = current;
                break;
            }
            walked.add(current);
            String cached = cache.get(current);
            if (cached != null) {
                root = cached;
                break;
            }
            Session session = store.getSession(current).orElse(null);
            String parentId = session == null ? null : session.parentSessionId();
            Session parent = parentId == null ? null : store.getSession(parentId).orElse(null);
            if (session == null || parent == null || !"compression".equals(parent.endReason())
                    || parent.endedAt() == null || session.startedAt().isBefore(parent.endedAt())) {
                root = current;
                break;
            }
            current = parent.id();
        }
        for (String id : walked) {
            cache.put(id, root);
        }
        return root;
    }

    /** Each word a prefix (the dashboard's rule): {@code nimb} finds {@code nimby}; quoted phrases and {@code word*} stay. */
    static String prefixQuery(String q) {
        List<String> terms = new ArrayList<>();
        Matcher matcher = SEARCH_TOKEN.matcher(q.strip());
        while (matcher.find()) {
            String token = matcher.group();
            terms.add(token.startsWith("\"") || token.endsWith("*") ? token : token + "*");
        }
        return String.join(" ", terms);
    }

    /**
     * The store's full-text search, one row per message: filters by source and role, order, paging; each
     * hit with its snippet (matches between {@code >>>} and {@code <<<}, and as {@code snippet_html} with
     * {@code <mark>}), its session and its neighbours.
     */
    private Object searchMessages(Params params) {
        params.only(Set.of("q", "limit", "offset", "source", "exclude_sources", "role", "sort", "include_inactive",
                "prefix"));
        String q = params.text("q");
        int limit = params.integer("limit", 20, 1, 200);
        int offset = params.integer("offset", 0, 0, 100_000);
        String sort = params.choice("sort", "relevance", Set.of("relevance", "newest", "oldest"));
        boolean prefix = params.flag("prefix", true);
        List<String> sources = params.list("source");
        List<String> exclude = params.list("exclude_sources");
        List<String> roles = params.list("role");
        boolean inactive = params.flag("include_inactive", false);
        Map<String, Object> answer = new LinkedHashMap<>();
        List<Map<String, @Nullable Object>> results = new ArrayList<>();
        answer.put("query", q == null ? "" : q);
        answer.put("results", results);
        answer.put("limit", limit);
        answer.put("offset", offset);
        if (q == null || q.isBlank()) {
            answer.put("has_more", false);
            return answer;
        }
        List<SearchHit> hits = store.searchMessages(SearchQuery.builder(prefix ? prefixQuery(q) : q)
                .sourceFilter(sources.isEmpty() ? null : sources)
                .excludeSources(exclude.isEmpty() ? null : exclude)
                .roleFilter(roles.isEmpty() ? null : roles)
                .order(SearchQuery.Order.ofHermes(sort))
                .includeInactive(inactive)
                .limit(limit + 1).offset(offset).build());
        Map<String, Optional<String>> titles = new HashMap<>();
        for (SearchHit h : hits.subList(0, Math.min(limit, hits.size()))) {
            Map<String, @Nullable Object> row = new LinkedHashMap<>();
            row.put("id", h.id());
            row.put("session_id", h.sessionId());
            row.put("title", titles.computeIfAbsent(h.sessionId(), store::getSessionTitle).orElse(null));
            row.put("role", h.role());
            row.put("snippet", h.snippet());
            row.put("snippet_html", snippetHtml(h.snippet()));
            row.put("timestamp", h.timestamp());
            row.put("tool_name", h.toolName());
            row.put("source", h.source());
            row.put("model", h.model());
            row.put("session_started", h.sessionStarted());
            List<Map<String, String>> context = new ArrayList<>();
            for (SearchHit.ContextMessage message : h.context()) {
                context.add(Map.of("role", message.role(), "content", message.content()));
            }
            row.put("context", context);
            results.add(row);
        }
        answer.put("has_more", hits.size() > limit);
        return answer;
    }

    /** The snippet escaped, its {@code >>>match<<<} marks as {@code <mark>}: safe to insert as HTML. */
    static String snippetHtml(String snippet) {
        StringBuilder out = new StringBuilder(snippet.length() + 32);
        int at = 0;
        boolean open = false;
        while (at < snippet.length()) {
            if (!open && snippet.startsWith(">>>", at)) {
                out.append("<mark>");
                open = true;
                at += 3;
            } else if (open && snippet.startsWith("<<<", at)) {
                out.append("</mark>");
                open = false;
                at += 3;
            } else {
                int next = at + 1;
                out.append(MarkdownHtml.escape(snippet.substring(at, next)));
                at = next;
            }
        }
        if (open) {
            out.append("</mark>");
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ statistics

    private Object stats(Params params) {
        params.only(Set.of());
        StoreStats stats = store.getStats();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("total", stats.total());
        answer.put("active_store", stats.notArchived());
        answer.put("archived", stats.archived());
        answer.put("messages", stats.messages());
        answer.put("by_source", stats.bySource());
        answer.put("by_model", stats.byModel());
        return answer;
    }

    private Object usage(Params params) {
        params.only(Set.of("days"));
        int days = params.integer("days", 30, 1, 3650);
        UsageReport report = store.getUsage(UsageQuery.lastDays(days, clock.instant()));
        Map<String, Object> answer = new LinkedHashMap<>();
        List<Map<String, Object>> daily = new ArrayList<>();
        for (UsageReport.Daily day : report.daily()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("day", day.day().toString());
            row.putAll(Shapes.usage(day.usage()));
            daily.add(row);
        }
        answer.put("daily", daily);
        List<Map<String, Object>> bySourceDaily = new ArrayList<>();
        for (UsageReport.DailySource day : report.dailyBySource()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("day", day.day().toString());
            row.put("source", day.source());
            row.putAll(Shapes.usage(day.usage()));
            bySourceDaily.add(row);
        }
        answer.put("daily_by_source", bySourceDaily);
        answer.put("by_model", groups("model", report.byModel()));
        answer.put("by_source", groups("source", report.bySource()));
        answer.put("totals", Shapes.totals(report.totals()));
        answer.put("period_days", days);
        return answer;
    }

    private static List<Map<String, Object>> groups(String key, List<UsageReport.Group> groups) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (UsageReport.Group group : groups) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(key, group.key());
            row.putAll(Shapes.usage(group.usage()));
            rows.add(row);
        }
        return rows;
    }

    private Object storeInfo(Params params) {
        params.only(Set.of());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("store", store.describe());
        answer.put("rules_version", store.rulesVersion());
        answer.put("read_only", store.isReadOnly());
        answer.put("live_seconds", Shapes.LIVE_SECONDS);
        answer.put("server_time", clock.instant());
        answer.put("automation_sources", List.copyOf(AUTOMATION_SOURCES));
        return answer;
    }

    /**
     * The rendered HTML of the messages last shown, by id, kept while the message's role and content are
     * unchanged: rendering Markdown is most of the cost of a long conversation, and a page polling a live
     * session asks for the same rows again and again. Bounded (least recently used out).
     */
    static final class HtmlCache {
        private static final int MAX_ENTRIES = 50_000;
        private final Map<Long, Rendered> entries = new java.util.LinkedHashMap<>(1024, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Rendered> eldest) {
                return size() > MAX_ENTRIES;
            }
        };

        String of(Message m) {
            Object content = m.content() == null ? null : m.content().value();
            synchronized (entries) {
                Rendered known = entries.get(m.id());
                if (known != null && known.role().equals(m.role()) && java.util.Objects.equals(known.content(), content)) {
                    return known.html();
                }
            }
            String rendered = Shapes.contentHtml(m);
            synchronized (entries) {
                entries.put(m.id(), new Rendered(m.role(), content, rendered));
            }
            return rendered;
        }

        private record Rendered(String role, @Nullable Object content, String html) {
        }
    }

    /** A document sent as a download. */
    record Attachment(String filename, Object document) {
    }
}
