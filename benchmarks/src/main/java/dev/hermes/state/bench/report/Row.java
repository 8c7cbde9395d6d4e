package dev.hermes.state.bench.report;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One line of the result table, and (when it has a target) one entry of the result file's
 * "targets" section. {@code met} is null for a line without a target or a target that could
 * not be evaluated in this run ({@code note} says why).
 */
public record Row(String workload, String measure, String ours, String raw, String ratio, String target,
                  @Nullable Boolean met, @Nullable String note) {

    public static Row info(String workload, String measure, String ours) {
        return new Row(workload, measure, ours, "", "", "", null, null);
    }

    public static Row compared(String workload, String measure, String ours, String raw, String ratio) {
        return new Row(workload, measure, ours, raw, ratio, "", null, null);
    }

    public boolean hasTarget() {
        return !target.isEmpty();
    }

    public String status() {
        if (!hasTarget()) {
            return "";
        }
        if (met == null) {
            return "n/a";
        }
        return met ? "met" : "MISSED";
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("measure", measure);
        json.put("target", target);
        json.put("ours", ours);
        if (!raw.isEmpty()) {
            json.put("raw", raw);
            json.put("ratio", ratio);
        }
        json.put("met", met);
        if (note != null) {
            json.put("note", note);
        }
        return json;
    }
}
