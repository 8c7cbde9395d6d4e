package dev.hermes.state.bench.data;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The data fingerprints of BENCHMARK.md section 1.8 (and the W4 ids of its W4 section): the generator
 * must reproduce them exactly before anything is measured, or the numbers compare different data.
 */
public final class Fingerprints {
    public static final long SPLITMIX_42_FIRST = 0xBDD732262FEB6E95L;
    public static final String VOCAB_SHA256 = "3955edcac4a088dcf5cf7fb902c9743ed08c0fcb53fa2add89547b1fe125a958";
    public static final long ZIPF_TOTAL_WEIGHT = 5_909_955_199L;
    public static final List<String> RANKS_1_TO_20 = List.of("wune", "serai", "sistefout", "poufouten", "covoun",
            "facutroun", "vosai", "docker", "venin", "stouhain", "kousar", "dofoux", "fubadum", "tozo", "deploy",
            "zosus", "braja", "lubaitain", "macofoun", "busaix");
    public static final List<String> RANKS_1999_TO_2007 = List.of("ludon", "ravehair", "necou", "saipiwoul",
            "gobair", "hohotoum", "tagobrou", "cicer", "bevais");
    public static final String FIRST_MESSAGE = "trasoux docker giwal jiki joukechet stouhain covoun doupes saigun "
            + "ginim wune foulil stouhain chajo covoun kaile kumit dofoux lupitrait cubrai stoujit sistefout zaizam "
            + "rafu serai kousar vimitat busaix vosai covoun juroun fubadum wune wune wune poufouten faimaix wune "
            + "covoun stouhain";

    /** The expected values of one standard size (M = 40). */
    @SuppressWarnings("ArrayRecordComponent") // published constants, compared with Arrays.toString
    public record SizeFingerprint(int sessions, String contentSha256, long contentCharacters, int toolCalls,
                                  int[] quasarOrdinals, List<String> firstReadIds) {
    }

    public static final SizeFingerprint S5000 = new SizeFingerprint(5000,
            "c8ef4de5adc5529fd689bdf8295a1504ea637dfe40bdd456c7a5b65a3fdf8c87", 56_529_471L, 15_000,
            new int[]{5110, 17361, 29929, 36781, 54770, 59523, 72902, 77216, 83509, 86590, 90109, 92549, 98613,
                    120523, 121867, 125450, 146981, 150277, 158037, 173176, 175425, 181318, 182175, 185394, 192797},
            List.of("bench-003825", "bench-000332", "bench-004864", "bench-003697", "bench-004655"));
    public static final SizeFingerprint S500 = new SizeFingerprint(500,
            "14140df38b58fba103f810377c22b39983087719d8d94ffe18e8eecd7168fd3a", 5_650_475L, 1_500,
            new int[]{523, 1318, 1867, 2175, 3509, 5110, 5394, 5450, 6590, 6981, 9929, 10109, 10277, 12549, 12797,
                    12902, 13176, 14770, 15425, 16781, 17216, 17361, 18037, 18613, 19523},
            List.of("bench-000325", "bench-000332", "bench-000364", "bench-000197", "bench-000155"));

    private Fingerprints() {
    }

    /** The published fingerprint of a size, or null when BENCHMARK.md publishes none (sizes other than 500/5000 × 40). */
    public static @Nullable SizeFingerprint published(int sessions, int messagesPerSession) {
        if (messagesPerSession != Workload.DEFAULT_MESSAGES) {
            return null;
        }
        return switch (sessions) {
            case Workload.DEFAULT_SESSIONS -> S5000;
            case Workload.QUICK_SESSIONS -> S500;
            default -> null;
        };
    }

    /** SHA-256 of the words in rank order joined by {@code \n}, no trailing newline. */
    public static String vocabularySha256(Vocabulary vocabulary) {
        return sha256(String.join("\n", vocabulary.words()));
    }

    /**
     * Every difference between the generated data and the published fingerprints; empty when all
     * match. Size-specific checks run only for the published sizes.
     */
    public static List<String> mismatches(Vocabulary vocabulary, ZipfSampler sampler, IngestPlan plan,
                                          List<String> readIds) {
        List<String> problems = new ArrayList<>();
        expect(problems, "SplitMix64(42).next()", Long.toHexString(SPLITMIX_42_FIRST),
                Long.toHexString(new SplitMix64(42).next()));
        expect(problems, "vocabulary size", 2007, vocabulary.size());
        expect(problems, "vocabulary SHA-256", VOCAB_SHA256, vocabularySha256(vocabulary));
        expect(problems, "ranks 1-20", RANKS_1_TO_20, vocabulary.words().subList(0, 20));
        expect(problems, "ranks 1999-2007", RANKS_1999_TO_2007, vocabulary.words().subList(1998, 2007));
        expect(problems, "Zipf total weight", ZIPF_TOTAL_WEIGHT, sampler.totalWeight());
        expect(problems, "first W1 message", FIRST_MESSAGE, plan.appends().get(0).message().text());
        SizeFingerprint published = published(plan.sessions(), plan.messagesPerSession());
        if (published != null) {
            expect(problems, "W1 content SHA-256", published.contentSha256(), plan.contentSha256());
            expect(problems, "W1 content characters", published.contentCharacters(), plan.totalContentCharacters());
            expect(problems, "W1 tool calls", published.toolCalls(), plan.toolCalls());
            expect(problems, "quasar ordinals", Arrays.toString(published.quasarOrdinals()),
                    Arrays.toString(plan.quasarOrdinals()));
            expect(problems, "W4 first five ids", published.firstReadIds(), readIds.subList(0, 5));
        }
        return problems;
    }

    private static void expect(List<String> problems, String what, Object expected, @Nullable Object actual) {
        if (!expected.equals(actual)) {
            problems.add(what + ": expected " + expected + " but generated " + actual);
        }
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
