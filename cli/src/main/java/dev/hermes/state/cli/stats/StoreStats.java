package dev.hermes.state.cli.stats;

import dev.hermes.state.core.StateRepository;
import org.jooq.DSLContext;
import org.jooq.Field;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.sum;

/**
 * What is in the store, in numbers: sessions and messages per source, tokens and costs per model,
 * the largest sessions. Three typed read queries on the store's read-only jOOQ context.
 */
public record StoreStats(long sessions, long messages, List<SourceRow> bySource, List<ModelRow> byModel,
                         List<LargestSession> largest) {

    /** Per source (cli, telegram, ...). */
    public record SourceRow(String source, long sessions, long messages, long toolCalls, Instant lastStarted) {
    }

    /** Per model; {@code model} null when the sessions never recorded one. */
    public record ModelRow(String model, long sessions, long inputTokens, long outputTokens, long cacheReadTokens,
                           long cacheWriteTokens, long reasoningTokens, double estimatedCostUsd, double actualCostUsd) {
        public long totalTokens() {
            return inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens + reasoningTokens;
        }
    }

    /** One of the sessions with the most messages. */
    public record LargestSession(String id, String title, String source, long messages, long toolCalls, long tokens) {
    }

    public static StoreStats collect(StateRepository store, int largestCount) {
        DSLContext dsl = store.dsl();
        List<SourceRow> bySource = dsl
                .select(SESSIONS.SOURCE, count(), sum(SESSIONS.MESSAGE_COUNT), sum(SESSIONS.TOOL_CALL_COUNT),
                        max(SESSIONS.STARTED_AT))
                .from(SESSIONS)
                .groupBy(SESSIONS.SOURCE)
                .orderBy(count().desc(), SESSIONS.SOURCE)
                .fetch(r -> new SourceRow(r.value1(), r.value2(), longOf(r.value3()), longOf(r.value4()), r.value5()));
        Field<BigDecimal> tokens = sum(SESSIONS.INPUT_TOKENS.plus(SESSIONS.OUTPUT_TOKENS));
        List<ModelRow> byModel = dsl
                .select(SESSIONS.MODEL, count(), sum(SESSIONS.INPUT_TOKENS), sum(SESSIONS.OUTPUT_TOKENS),
                        sum(SESSIONS.CACHE_READ_TOKENS), sum(SESSIONS.CACHE_WRITE_TOKENS), sum(SESSIONS.REASONING_TOKENS),
                        sum(SESSIONS.ESTIMATED_COST_USD), sum(SESSIONS.ACTUAL_COST_USD))
                .from(SESSIONS)
                .groupBy(SESSIONS.MODEL)
                .orderBy(tokens.desc().nullsLast(), SESSIONS.MODEL)
                .fetch(r -> new ModelRow(r.value1(), r.value2(), longOf(r.value3()), longOf(r.value4()),
                        longOf(r.value5()), longOf(r.value6()), longOf(r.value7()), doubleOf(r.value8()),
                        doubleOf(r.value9())));
        List<LargestSession> largest = dsl
                .select(SESSIONS.ID, SESSIONS.TITLE, SESSIONS.SOURCE, SESSIONS.MESSAGE_COUNT, SESSIONS.TOOL_CALL_COUNT,
                        SESSIONS.INPUT_TOKENS.plus(SESSIONS.OUTPUT_TOKENS))
                .from(SESSIONS)
                .orderBy(SESSIONS.MESSAGE_COUNT.desc().nullsLast(), SESSIONS.ID)
                .limit(largestCount)
                .fetch(r -> new LargestSession(r.value1(), r.value2(), r.value3(), longOf(r.value4()),
                        longOf(r.value5()), longOf(r.value6())));
        return new StoreStats(store.sessionCount(), store.messageCount(null), bySource, byModel, largest);
    }

    /** The JSON document of {@code stats --json}. */
    public Map<String, Object> toJson() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("sessions", sessions);
        document.put("messages", messages);
        List<Map<String, Object>> sources = new ArrayList<>();
        for (SourceRow row : bySource) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("source", row.source());
            item.put("sessions", row.sessions());
            item.put("messages", row.messages());
            item.put("tool_calls", row.toolCalls());
            item.put("last_started_at", row.lastStarted());
            sources.add(item);
        }
        document.put("by_source", sources);
        List<Map<String, Object>> models = new ArrayList<>();
        for (ModelRow row : byModel) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("model", row.model());
            item.put("sessions", row.sessions());
            item.put("input_tokens", row.inputTokens());
            item.put("output_tokens", row.outputTokens());
            item.put("cache_read_tokens", row.cacheReadTokens());
            item.put("cache_write_tokens", row.cacheWriteTokens());
            item.put("reasoning_tokens", row.reasoningTokens());
            item.put("estimated_cost_usd", row.estimatedCostUsd());
            item.put("actual_cost_usd", row.actualCostUsd());
            models.add(item);
        }
        document.put("by_model", models);
        List<Map<String, Object>> sessionsBySize = new ArrayList<>();
        for (LargestSession row : largest) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", row.id());
            item.put("title", row.title());
            item.put("source", row.source());
            item.put("message_count", row.messages());
            item.put("tool_call_count", row.toolCalls());
            item.put("tokens", row.tokens());
            sessionsBySize.add(item);
        }
        document.put("largest_sessions", sessionsBySize);
        return document;
    }

    private static long longOf(Number value) {
        return value == null ? 0 : value.longValue();
    }

    private static double doubleOf(Number value) {
        return value == null ? 0 : value.doubleValue();
    }
}
