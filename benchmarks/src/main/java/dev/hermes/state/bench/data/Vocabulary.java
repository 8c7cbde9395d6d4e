package dev.hermes.state.bench.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ranked vocabulary of BENCHMARK.md section 1.2: 2,000 generated pseudo-words plus seven fixed
 * words inserted at fixed ranks; rank 1 is the most frequent word under the Zipf sampler.
 */
public final class Vocabulary {
    public static final int GENERATED_WORDS = 2000;
    /** The rare word placed exactly 25 times in W1 (section 1.5); deliberately not in the list. */
    public static final String QUASAR = "quasar";

    private static final String[] ONSETS = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r",
            "s", "t", "v", "w", "z", "br", "ch", "st", "tr"};
    private static final String[] NUCLEI = {"a", "e", "i", "o", "u", "ai", "ou"};
    private static final String[] CODAS = {"", "", "", "n", "r", "s", "l", "x", "m", "t"};
    private static final Set<String> REJECTED = Set.of("docker", "kubernetes", "postgres", "migration", "deploy",
            "latency", "rollback", QUASAR, "and", "or", "not", "near");
    /** Fixed words and their 1-based ranks, inserted in this order. */
    private static final Map<String, Integer> FIXED_RANKS = fixedRanks();

    private final List<String> ranked;

    private Vocabulary(List<String> ranked) {
        this.ranked = List.copyOf(ranked);
    }

    /** Builds the vocabulary from the VOCAB stream (seed 42). */
    public static Vocabulary build() {
        SplitMix64 random = new SplitMix64(SplitMix64.VOCAB);
        List<String> words = new ArrayList<>(GENERATED_WORDS + FIXED_RANKS.size());
        Set<String> accepted = new HashSet<>();
        while (words.size() < GENERATED_WORDS) {
            int syllables = random.nextBelow(4) == 0 ? 3 : 2;
            StringBuilder word = new StringBuilder();
            for (int s = 0; s < syllables; s++) {
                word.append(ONSETS[random.nextBelow(ONSETS.length)]);
                word.append(NUCLEI[random.nextBelow(NUCLEI.length)]);
            }
            word.append(CODAS[random.nextBelow(CODAS.length)]);
            String candidate = word.toString();
            if (!REJECTED.contains(candidate) && accepted.add(candidate)) {
                words.add(candidate);
            }
        }
        FIXED_RANKS.forEach((word, rank) -> words.add(rank - 1, word));
        return new Vocabulary(words);
    }

    /** Number of words (2,007). */
    public int size() {
        return ranked.size();
    }

    /** The word of 1-based {@code rank}. */
    public String word(int rank) {
        return ranked.get(rank - 1);
    }

    /** All words, rank 1 first. */
    public List<String> words() {
        return Collections.unmodifiableList(ranked);
    }

    private static Map<String, Integer> fixedRanks() {
        Map<String, Integer> ranks = new LinkedHashMap<>();
        ranks.put("docker", 8);
        ranks.put("deploy", 15);
        ranks.put("kubernetes", 40);
        ranks.put("postgres", 60);
        ranks.put("migration", 120);
        ranks.put("latency", 250);
        ranks.put("rollback", 500);
        return Collections.unmodifiableMap(ranks);
    }
}
