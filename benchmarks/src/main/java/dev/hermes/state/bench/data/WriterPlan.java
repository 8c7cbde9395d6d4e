package dev.hermes.state.bench.data;

import dev.hermes.state.core.model.NewMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * What W9 worker {@code w} writes: sessions {@code w9-<w>-00 ... w9-<w>-09}, 200 messages each in the
 * role script of section 1.6, appended round-robin over its sessions; contents from the stream of
 * seed 50 + w, tool-call numbers counted per worker from 1.
 */
public record WriterPlan(int worker, List<String> sessionIds, List<String> sources, List<Append> appends) {
    public static final int SESSIONS = 10;
    public static final int MESSAGES_PER_SESSION = 200;

    /** One append_message call of the worker. */
    public record Append(String sessionId, NewMessage message) {
    }

    public WriterPlan {
        sessionIds = List.copyOf(sessionIds);
        sources = List.copyOf(sources);
        appends = List.copyOf(appends);
    }

    /** W9's session ids: {@code w9-<w>-<kk>}. */
    public static final String W9_PREFIX = "w9";

    public static WriterPlan build(int worker, ZipfSampler sampler) {
        return build(W9_PREFIX, worker, sampler);
    }

    /** The plan of worker {@code w} with the session ids {@code <prefix>-<w>-<kk>} (the same messages whatever the prefix). */
    public static WriterPlan build(String prefix, int worker, ZipfSampler sampler) {
        List<String> ids = new ArrayList<>(SESSIONS);
        List<String> sources = new ArrayList<>(SESSIONS);
        for (int k = 0; k < SESSIONS; k++) {
            ids.add(String.format("%s-%d-%02d", prefix, worker, k));
            sources.add(Workload.source(k));
        }
        List<Turn> script = Turn.script(MESSAGES_PER_SESSION);
        SplitMix64 random = SplitMix64.w9Worker(worker);
        int[] lastToolCall = new int[SESSIONS];
        int toolCalls = 0;
        List<Append> appends = new ArrayList<>(SESSIONS * MESSAGES_PER_SESSION);
        for (int index = 0; index < MESSAGES_PER_SESSION; index++) {
            Turn turn = script.get(index);
            for (int k = 0; k < SESSIONS; k++) {
                if (turn == Turn.ASSISTANT_WITH_TOOL_CALL) {
                    lastToolCall[k] = ++toolCalls;
                }
                appends.add(new Append(ids.get(k), turn.message(sampler.content(random), lastToolCall[k])));
            }
        }
        return new WriterPlan(worker, ids, sources, appends);
    }
}
