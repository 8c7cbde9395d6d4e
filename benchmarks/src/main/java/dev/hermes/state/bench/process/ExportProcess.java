package dev.hermes.state.bench.process;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.cli.json.Json;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.core.model.SessionExport;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W6's child (started with {@code -Xmx64m}): opens the store (a file or a schema, see {@link StoreTarget}), streams {@code export_all()} into a JSONL
 * file, one line per session as {@code hermes-state sessions export} writes it (the agent's export dict:
 * every session column and {@code messages}, each with every column of the store's schema, structured
 * values decoded; the Python side writes the agent's own dicts), and prints one {@code RESULT {...}} line
 * with the counts, times and resident set sizes.
 *
 * <p>Before the clock starts, the writer writes one dict of the export's shape to nowhere: its first use
 * in a fresh JVM loads and links its classes, the harness's cost, not the store's (the Python side's
 * json module is loaded before its clock starts too).
 */
public final class ExportProcess {
    public static final String RESULT = "RESULT ";

    /** The result line only. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExportProcess() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println(RESULT + JSON.writeValueAsString(export(args[0], Path.of(args[1]))));
    }

    /** Exports the store at {@code target} into {@code out}; returns the counts, times and resident set sizes. */
    static Map<String, Object> export(String target, Path out) throws IOException {
        long start = System.nanoTime();
        try (StateRepository store = StoreTarget.open(target);
             OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16);
             JsonGenerator json = Json.generator(file)) {
            double rssAfterOpen = ProcStatus.rssMb();
            boolean v17 = store.schemaRules() == SchemaRules.V17;
            warmUpWriter();
            long[] messages = {0};
            long[] sinkNanos = {0};
            long exportStart = System.nanoTime();
            long sessions = store.exportAll(null, export -> {
                long before = System.nanoTime();
                write(json, export, v17);
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
            return result;
        }
    }

    private static void warmUpWriter() throws IOException {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", "call_0");
        call.put("arguments", List.of(1L, 2.5, true));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", "s");
        row.put("started_at", 1.5);
        row.put("messages", List.of(Map.of("tool_calls", List.of(call))));
        try (JsonGenerator nowhere = Json.generator(OutputStream.nullOutputStream())) {
            Json.write(nowhere, row);
        }
    }

    /** One line, as {@code hermes-state sessions export} writes it: the agent's export dict of the session. */
    static void write(JsonGenerator json, SessionExport export, boolean v17) {
        try {
            Json.write(json, HermesShapes.export(export, v17));
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
