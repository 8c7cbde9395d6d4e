package dev.hermes.state.bench.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.bench.engine.RunDatabases;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.process.Child;
import dev.hermes.state.bench.process.ExportProcess;
import dev.hermes.state.bench.process.JavaProcess;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.CopyOptions;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * W6 — export: a fresh JVM capped at {@code -Xmx64m} streams export_all() into JSONL (see
 * {@link ExportProcess}). Run twice; the two outputs must be byte-identical (checked by SHA-256).
 * On PostgreSQL the store is also copied (untimed, the product's copy) into a SQLite file whose
 * export must give the same bytes: the same data exports the same JSON lines on both engines.
 */
public final class W6Export {
    public static final String HEAP_CAP = "-Xmx64m";
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    /** One export child's report. */
    public record Run(int exitCode, Map<String, Object> report, long jsonlBytes, String sha256, @Nullable String failure) {
    }

    /** {@code sqliteCopy}: the export of the store's SQLite copy (PostgreSQL only; null on SQLite). */
    public record Result(Run first, Run second, @Nullable Run sqliteCopy) {
        public boolean bothSucceeded() {
            return first.failure() == null && second.failure() == null
                    && (sqliteCopy == null || sqliteCopy.failure() == null);
        }

        public boolean identical() {
            return bothSucceeded() && first.sha256().equals(second.sha256());
        }

        /** True when there is no copy to compare with (SQLite), else whether its export has the same bytes. */
        public boolean sameAsSqliteCopy() {
            return sqliteCopy == null || (bothSucceeded() && first.sha256().equals(sqliteCopy.sha256()));
        }

        public double peakRssMb() {
            return number(first, "peak_rss_mb");
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            Map<String, Object> report = first.report();
            json.put("sessions", report.get("sessions"));
            json.put("messages", report.get("messages"));
            json.put("export_all_s", Report.round(number(first, "export_all_s")));
            json.put("serialize_write_s", Report.round(number(first, "serialize_write_s")));
            json.put("total_s", Report.round(number(first, "total_s")));
            json.put("jsonl_bytes", first.jsonlBytes());
            json.put("rss_after_open_mb", Report.round(number(first, "rss_after_open_mb")));
            json.put("peak_rss_mb", Report.round(number(first, "peak_rss_mb")));
            return json;
        }

        /** What the W6 target needs beyond the result layout. */
        public Map<String, Object> detailsJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("heap_cap", HEAP_CAP);
            json.put("streamed", true);
            json.put("byte_identical_second_run", identical());
            json.put("sha256", first.sha256());
            json.put("second_run_total_s", Report.round(number(second, "total_s")));
            json.put("second_run_peak_rss_mb", Report.round(number(second, "peak_rss_mb")));
            if (sqliteCopy != null) {
                json.put("sqlite_copy_sha256", sqliteCopy.sha256());
                json.put("same_bytes_as_sqlite_copy", sameAsSqliteCopy());
            }
            if (!bothSucceeded()) {
                json.put("failure", failure());
            }
            return json;
        }

        public double totalSeconds() {
            return number(first, "total_s");
        }

        public @Nullable String failure() {
            return first.failure() != null ? first.failure() : second.failure() != null ? second.failure()
                    : sqliteCopy == null ? null : sqliteCopy.failure();
        }

        private static double number(Run run, String key) {
            Object value = run.report().get(key);
            return value instanceof Number n ? n.doubleValue() : Double.NaN;
        }
    }

    private W6Export() {
    }

    public static Result run(RunDatabases databases, Path scratch) throws Exception {
        String target = databases.target(RunDatabases.MAIN);
        Run first = exportOnce(target, scratch, 1);
        Run second = exportOnce(target, scratch, 2);
        if (!StoreTarget.isUrl(target)) {
            return new Result(first, second, null);
        }
        Path copy = scratch.resolve("w6-sqlite-copy.db");
        try (StateRepository store = databases.openStore(RunDatabases.MAIN);
             StateRepository file = StoreTarget.open(copy.toString())) {
            store.copyTo(file, CopyOptions.intoEmpty(), null);
        }
        return new Result(first, second, exportOnce(copy.toString(), scratch, 3));
    }

    private static Run exportOnce(String target, Path scratch, int number) throws Exception {
        Path jsonl = scratch.resolve("w6-export-" + number + ".jsonl");
        List<String> options = new ArrayList<>(JavaProcess.userOptions(true));
        options.add(HEAP_CAP);
        List<String> command = JavaProcess.command(options, ExportProcess.class, target, jsonl.toString());
        try (Child child = Child.start(command, scratch.resolve("w6-export-" + number + ".err"))) {
            Map<String, Object> report = Map.of();
            String failure = null;
            try {
                String line = child.awaitLine(ExportProcess.RESULT, TIMEOUT).text();
                report = readMap(line.substring(ExportProcess.RESULT.length()));
            } catch (IllegalStateException failed) {
                failure = failed.getMessage();
            }
            int exit = child.waitFor(TIMEOUT);
            if (failure == null && exit != 0) {
                failure = "export child exited with " + exit + child.stderrTail();
            }
            long bytes = Report.sizeOrZero(jsonl);
            String sha = Files.exists(jsonl) ? sha256(jsonl) : "";
            Files.deleteIfExists(jsonl);
            return new Run(exit, report, bytes, sha, failure);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readMap(String json) throws IOException {
        return new ObjectMapper().readValue(json, LinkedHashMap.class);
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            byte[] buffer = new byte[1 << 16];
            while (in.read(buffer) >= 0) {
                // digesting while reading
            }
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
