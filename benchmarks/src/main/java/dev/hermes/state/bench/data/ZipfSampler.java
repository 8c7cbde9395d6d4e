package dev.hermes.state.bench.data;

import java.util.Arrays;

/**
 * Draws words with Zipf weights (s = 1.1) as BENCHMARK.md section 1.3 defines them: integer weights
 * {@code floor(1e9 / k^1.1)} so that every implementation picks the same word for the same draw.
 */
public final class ZipfSampler {
    public static final int WORDS_PER_MESSAGE = 40;

    private final Vocabulary vocabulary;
    private final long[] cumulative;

    public ZipfSampler(Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
        this.cumulative = new long[vocabulary.size()];
        long sum = 0;
        for (int k = 1; k <= vocabulary.size(); k++) {
            sum += (long) (1e9 / Math.pow(k, 1.1));
            cumulative[k - 1] = sum;
        }
    }

    /** T = C_2007 (5,909,955,199 for the standard vocabulary). */
    public long totalWeight() {
        return cumulative[cumulative.length - 1];
    }

    /** One word: the smallest rank whose cumulative weight exceeds a uniform draw below T. */
    public String nextWord(SplitMix64 random) {
        long r = random.nextBelow(totalWeight());
        int index = Arrays.binarySearch(cumulative, r);
        // exact hit: C_k == r, so the word is the next rank; miss: the insertion point is the first C_k > r
        int rankIndex = index >= 0 ? index + 1 : -index - 1;
        return vocabulary.word(rankIndex + 1);
    }

    /** One message content (section 1.4): 40 words joined by single spaces. */
    public String content(SplitMix64 random) {
        return content(random, -1);
    }

    /**
     * A message content whose word number {@code quasarPosition} (0-based) is replaced by
     * {@code quasar} after all 40 draws; -1 replaces nothing.
     */
    public String content(SplitMix64 random, int quasarPosition) {
        StringBuilder text = new StringBuilder(320);
        for (int i = 0; i < WORDS_PER_MESSAGE; i++) {
            String word = nextWord(random);
            if (i > 0) {
                text.append(' ');
            }
            text.append(i == quasarPosition ? Vocabulary.QUASAR : word);
        }
        return text.toString();
    }
}
