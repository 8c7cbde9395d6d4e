package dev.hermes.state.bench.data;

import dev.hermes.state.core.model.NewMessage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The W1 ingest, generated in full before it is timed: the create_session and append_message calls
 * in the round-robin order of BENCHMARK.md section 1.7 (50 active sessions), with contents from the
 * CONTENT stream, the 25 {@code quasar} placements of section 1.5 and the tool calls of section 1.6.
 */
public final class IngestPlan {
    public static final int ACTIVE_SLOTS = 50;
    public static final int QUASAR_OCCURRENCES = 25;

    /** One call of the W1 schedule. */
    public sealed interface Step permits CreateSession, Append {
    }

    /** {@code create_session(id, source, model="bench/model-a")} for W1 session {@code index}. */
    public record CreateSession(int index, String id, String source) implements Step {
    }

    /** {@code append_message(sessionId, ...)}: message {@code indexInSession} of the session, W1 ordinal {@code ordinal}. */
    public record Append(int sessionIndex, String sessionId, int indexInSession, int ordinal, Turn turn,
                         NewMessage message) implements Step {
    }

    private final int sessions;
    private final int messagesPerSession;
    private final List<Step> steps;
    private final List<Append> appends;
    private final int[] quasarOrdinals;
    private final int toolCalls;

    private IngestPlan(int sessions, int messagesPerSession, List<Step> steps, List<Append> appends,
                       int[] quasarOrdinals, int toolCalls) {
        this.sessions = sessions;
        this.messagesPerSession = messagesPerSession;
        this.steps = steps;
        this.appends = appends;
        this.quasarOrdinals = quasarOrdinals;
        this.toolCalls = toolCalls;
    }

    public static IngestPlan build(int sessions, int messagesPerSession, ZipfSampler sampler) {
        if (sessions < 1 || messagesPerSession < 1) {
            throw new IllegalArgumentException("sessions and messages per session must be positive");
        }
        int total = Math.multiplyExact(sessions, messagesPerSession);
        Map<Integer, Integer> quasarPositions = quasarPlacements(total);
        List<Turn> script = Turn.script(messagesPerSession);
        SplitMix64 content = new SplitMix64(SplitMix64.CONTENT);

        List<Step> steps = new ArrayList<>(total + sessions);
        List<Append> appends = new ArrayList<>(total);
        int[] slots = new int[ACTIVE_SLOTS];
        Arrays.fill(slots, -1);
        int[] appended = new int[sessions];
        int[] lastToolCall = new int[sessions];
        int toolCalls = 0;
        int next = 0;
        boolean appendedInPass;
        do {
            appendedInPass = false;
            for (int slot = 0; slot < ACTIVE_SLOTS; slot++) {
                if (slots[slot] < 0 && next < sessions) {
                    steps.add(new CreateSession(next, Workload.benchSessionId(next), Workload.source(next)));
                    slots[slot] = next++;
                }
                int session = slots[slot];
                if (session < 0) {
                    continue;
                }
                int ordinal = appends.size();
                int index = appended[session]++;
                Turn turn = script.get(index);
                if (turn == Turn.ASSISTANT_WITH_TOOL_CALL) {
                    lastToolCall[session] = ++toolCalls;
                }
                String text = sampler.content(content, quasarPositions.getOrDefault(ordinal, -1));
                Append append = new Append(session, Workload.benchSessionId(session), index, ordinal, turn,
                        turn.message(text, lastToolCall[session]));
                steps.add(append);
                appends.add(append);
                appendedInPass = true;
                if (appended[session] == messagesPerSession) {
                    slots[slot] = -1;
                }
            }
        } while (appendedInPass || next < sessions);
        int[] ordinals = quasarPositions.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        return new IngestPlan(sessions, messagesPerSession, List.copyOf(steps), List.copyOf(appends), ordinals, toolCalls);
    }

    /** Section 1.5: 25 distinct (ordinal, word position) pairs from the QUASAR stream; a repeated ordinal is discarded. */
    private static Map<Integer, Integer> quasarPlacements(int totalMessages) {
        SplitMix64 random = new SplitMix64(SplitMix64.QUASAR);
        Map<Integer, Integer> positions = new LinkedHashMap<>();
        int wanted = Math.min(QUASAR_OCCURRENCES, totalMessages);
        while (positions.size() < wanted) {
            int ordinal = (int) random.nextBelow((long) totalMessages);
            int position = random.nextBelow(ZipfSampler.WORDS_PER_MESSAGE);
            positions.putIfAbsent(ordinal, position);
        }
        return positions;
    }

    public int sessions() {
        return sessions;
    }

    public int messagesPerSession() {
        return messagesPerSession;
    }

    /** Every call in W1 order. */
    public List<Step> steps() {
        return steps;
    }

    /** The append calls only, in W1 order (index = ordinal). */
    public List<Append> appends() {
        return appends;
    }

    /** For every session, its appends in message order (one pass over the plan). */
    public List<List<Append>> appendsBySession() {
        List<List<Append>> bySession = new ArrayList<>(sessions);
        for (int s = 0; s < sessions; s++) {
            bySession.add(new ArrayList<>(messagesPerSession));
        }
        for (Append append : appends) {
            bySession.get(append.sessionIndex()).add(append);
        }
        return bySession;
    }

    /** Ordinals that carry {@code quasar}, ascending. */
    public int[] quasarOrdinals() {
        return quasarOrdinals.clone();
    }

    /** Number of tool calls in W1 (3 per session for M = 40). */
    public int toolCalls() {
        return toolCalls;
    }

    /** SHA-256 over every content in append order, each followed by a newline (section 1.8). */
    public String contentSha256() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Append append : appends) {
                digest.update(Objects.requireNonNull(append.message().text()).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    /** Total characters of all W1 contents. */
    public long totalContentCharacters() {
        long total = 0;
        for (Append append : appends) {
            total += Objects.requireNonNull(append.message().text()).length();
        }
        return total;
    }
}
