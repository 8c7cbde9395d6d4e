package dev.hermes.state.bench.process;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionExport;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * W6's child (started with {@code -Xmx64m}): opens the store (a file or a schema, see {@link StoreTarget}), streams {@code export_all()} into a JSONL
 * file (one session with its messages per line, Hermes' snake_case keys), and prints one
 * {@code RESULT {...}} line with the counts, times and resident set sizes.
 *
 * <p>Before the clock starts, the object mapper that writes {@code tool_calls} writes one value of the
 * shape the export hands it (a list of maps of strings): its first use in a fresh JVM builds its
 * serializers, 0.1-0.2 s on a busy two-core machine, measured; that is the harness's cost, not the
 * store's (the Python side's json module is loaded before its clock starts too).
 */
public final class ExportProcess {
    public static final String RESULT = "RESULT ";

    /** Writing a tool_calls value must not flush the file after every message. */
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

    private ExportProcess() {
    }

    public static void main(String[] args) throws IOException {
        String target = args[0];
        Path out = Path.of(args[1]);
        long start = System.nanoTime();
        try (StateRepository store = StoreTarget.open(target);
             OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16);
             JsonGenerator json = JSON.getFactory().createGenerator(file, JsonEncoding.UTF8)) {
            json.setRootValueSeparator(null); // lines end with our own newline, no separator before them
            double rssAfterOpen = ProcStatus.rssMb();
            warmUpToolCallsWriter();
            long[] messages = {0};
            long[] sinkNanos = {0};
            long exportStart = System.nanoTime();
            long sessions = store.exportAll(null, export -> {
                long before = System.nanoTime();
                write(json, export);
                sinkNanos[0] += System.nanoTime() - before;
                messages[0] += export.messages().size();
            });
            json.flush();
            long total = System.nanoTime() - exportStart;
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("sessions", sessions);
            result.put("messages", messages[0]);
            result.put("export_all_s", (total - sinkNanos[0]) / 1e9);
            result.put("serialize_write_s", sinkNanos[0] / 1e9);
            result.put("total_s", total / 1e9);
            result.put("open_s", (exportStart - start) / 1e9);
            result.put("rss_after_open_mb", rssAfterOpen);
            result.put("peak_rss_mb", ProcStatus.peakRssMb());
            result.put("max_heap_mb", Runtime.getRuntime().maxMemory() / (1024.0 * 1024.0));
            System.out.println(RESULT + JSON.writeValueAsString(result));
        }
    }

    private static void warmUpToolCallsWriter() throws IOException {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", "call_0");
        try (JsonGenerator nowhere = JSON.getFactory().createGenerator(OutputStream.nullOutputStream())) {
            JSON.writeValue(nowhere, new ArrayList<>(List.of(call)));
        }
    }

    /** One line: every session column, then {@code messages} as get_messages returns them. */
    static void write(JsonGenerator json, SessionExport export) {
        try {
            Session s = export.session();
            json.writeStartObject();
            json.writeStringField("id", s.id());
            json.writeStringField("source", s.source());
            json.writeStringField("user_id", s.userId());
            json.writeStringField("model", s.model());
            json.writeStringField("model_config", s.modelConfig());
            json.writeStringField("system_prompt", s.systemPrompt());
            json.writeStringField("parent_session_id", s.parentSessionId());
            writeTime(json, "started_at", s.startedAt());
            writeTime(json, "ended_at", s.endedAt());
            json.writeStringField("end_reason", s.endReason());
            json.writeNumberField("message_count", s.messageCount());
            json.writeNumberField("tool_call_count", s.toolCallCount());
            json.writeNumberField("input_tokens", s.inputTokens());
            json.writeNumberField("output_tokens", s.outputTokens());
            json.writeNumberField("cache_read_tokens", s.cacheReadTokens());
            json.writeNumberField("cache_write_tokens", s.cacheWriteTokens());
            json.writeNumberField("reasoning_tokens", s.reasoningTokens());
            json.writeStringField("billing_provider", s.billingProvider());
            json.writeStringField("billing_base_url", s.billingBaseUrl());
            json.writeStringField("billing_mode", s.billingMode());
            writeNumber(json, "estimated_cost_usd", s.estimatedCostUsd());
            writeNumber(json, "actual_cost_usd", s.actualCostUsd());
            json.writeStringField("cost_status", s.costStatus());
            json.writeStringField("cost_source", s.costSource());
            json.writeStringField("pricing_version", s.pricingVersion());
            json.writeStringField("title", s.title());
            json.writeArrayFieldStart("messages");
            for (Message m : export.messages()) {
                json.writeStartObject();
                json.writeNumberField("id", m.id());
                json.writeStringField("session_id", m.sessionId());
                json.writeStringField("role", m.role());
                json.writeFieldName("content");
                JSON.writeValue(json, m.content() == null ? null : m.content().value());
                json.writeStringField("tool_call_id", m.toolCallId());
                json.writeFieldName("tool_calls");
                JSON.writeValue(json, m.toolCalls() == null ? null : m.toolCalls().value());
                json.writeStringField("tool_name", m.toolName());
                writeTime(json, "timestamp", m.timestamp());
                writeNumber(json, "token_count", m.tokenCount());
                json.writeStringField("finish_reason", m.finishReason());
                json.writeStringField("reasoning", m.reasoning());
                json.writeStringField("reasoning_details", m.reasoningDetails() == null ? null : m.reasoningDetails().json());
                json.writeStringField("codex_reasoning_items", m.codexReasoningItems() == null ? null : m.codexReasoningItems().json());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Epoch seconds as a float, like the file stores them. */
    private static void writeTime(JsonGenerator json, String field, @Nullable Instant time) throws IOException {
        if (time == null) {
            json.writeNullField(field);
        } else {
            json.writeNumberField(field, time.getEpochSecond() + time.getNano() / 1e9);
        }
    }

    private static void writeNumber(JsonGenerator json, String field, @Nullable Number value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else if (value instanceof Double d) {
            json.writeNumberField(field, d);
        } else {
            json.writeNumberField(field, value.longValue());
        }
    }
}
