package dev.hermes.state.bench.data;

import java.util.List;
import java.util.Locale;

/**
 * The 60 W2 queries of BENCHMARK.md in run order (common, rare, phrase, prefix, or; left to right),
 * with the appendix match counts after W1 ({@code SELECT count(*) FROM messages_fts WHERE
 * messages_fts MATCH q}) for S = 5000 and S = 500 (M = 40).
 */
public final class SearchCases {
    /** The query categories of W2, in run order. */
    public enum Category {
        COMMON, RARE, PHRASE, PREFIX, OR;

        /** The key used in reports: {@code common}, {@code rare}, ... */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One W2 query with its expected match counts. */
    public record SearchCase(Category category, String query, long matchesAtS5000, long matchesAtS500) {
    }

    public static final List<SearchCase> ALL = List.of(
            new SearchCase(Category.COMMON, "wune", 199871, 19988),
            new SearchCase(Category.COMMON, "serai", 192743, 19282),
            new SearchCase(Category.COMMON, "sistefout", 174851, 17497),
            new SearchCase(Category.COMMON, "poufouten", 155438, 15588),
            new SearchCase(Category.COMMON, "covoun", 137896, 13745),
            new SearchCase(Category.COMMON, "facutroun", 123359, 12315),
            new SearchCase(Category.COMMON, "vosai", 110308, 11006),
            new SearchCase(Category.COMMON, "docker", 99866, 9900),
            new SearchCase(Category.COMMON, "venin", 91042, 9162),
            new SearchCase(Category.COMMON, "stouhain", 83072, 8114),
            new SearchCase(Category.COMMON, "kousar", 77118, 7760),
            new SearchCase(Category.COMMON, "dofoux", 71313, 7152),
            new SearchCase(Category.COMMON, "fubadum", 66711, 6699),
            new SearchCase(Category.COMMON, "tozo", 62236, 6245),
            new SearchCase(Category.COMMON, "deploy", 58146, 5792),
            new SearchCase(Category.COMMON, "zosus", 55076, 5616),
            new SearchCase(Category.COMMON, "braja", 52254, 5354),
            new SearchCase(Category.COMMON, "lubaitain", 49182, 4847),
            new SearchCase(Category.COMMON, "macofoun", 46759, 4565),
            new SearchCase(Category.COMMON, "busaix", 44458, 4499),
            new SearchCase(Category.RARE, "quasar", 25, 25),
            new SearchCase(Category.RARE, "ludon", 294, 32),
            new SearchCase(Category.RARE, "ravehair", 285, 21),
            new SearchCase(Category.RARE, "necou", 307, 34),
            new SearchCase(Category.RARE, "saipiwoul", 325, 29),
            new SearchCase(Category.RARE, "gobair", 321, 28),
            new SearchCase(Category.RARE, "hohotoum", 324, 34),
            new SearchCase(Category.RARE, "tagobrou", 296, 27),
            new SearchCase(Category.RARE, "cicer", 306, 21),
            new SearchCase(Category.RARE, "bevais", 332, 26),
            new SearchCase(Category.PHRASE, "\"wune serai\"", 82221, 8227),
            new SearchCase(Category.PHRASE, "\"serai wune\"", 82733, 8339),
            new SearchCase(Category.PHRASE, "\"wune sistefout\"", 57224, 5701),
            new SearchCase(Category.PHRASE, "\"serai poufouten\"", 21660, 2129),
            new SearchCase(Category.PHRASE, "\"sistefout covoun\"", 11203, 1081),
            new SearchCase(Category.PHRASE, "\"docker deploy\"", 1140, 119),
            new SearchCase(Category.PHRASE, "\"deploy docker\"", 1142, 108),
            new SearchCase(Category.PHRASE, "\"wune kubernetes\"", 3917, 360),
            new SearchCase(Category.PHRASE, "\"postgres migration\"", 13, 2),
            new SearchCase(Category.PHRASE, "\"latency rollback\"", 1, 0),
            new SearchCase(Category.PREFIX, "doc*", 102577, 10184),
            new SearchCase(Category.PREFIX, "dep*", 58146, 5792),
            new SearchCase(Category.PREFIX, "kub*", 32694, 3277),
            new SearchCase(Category.PREFIX, "pos*", 18407, 1844),
            new SearchCase(Category.PREFIX, "mig*", 7167, 737),
            new SearchCase(Category.PREFIX, "lat*", 3125, 283),
            new SearchCase(Category.PREFIX, "rol*", 1480, 153),
            new SearchCase(Category.PREFIX, "wun*", 199871, 19988),
            new SearchCase(Category.PREFIX, "ser*", 192743, 19282),
            new SearchCase(Category.PREFIX, "sis*", 174851, 17497),
            new SearchCase(Category.OR, "docker OR kubernetes", 111126, 11049),
            new SearchCase(Category.OR, "postgres OR migration", 20764, 2087),
            new SearchCase(Category.OR, "latency OR rollback", 4582, 436),
            new SearchCase(Category.OR, "deploy OR quasar", 58160, 5808),
            new SearchCase(Category.OR, "quasar OR rollback", 1505, 178),
            new SearchCase(Category.OR, "wune OR serai", 199995, 20000),
            new SearchCase(Category.OR, "wune OR quasar", 199871, 19988),
            new SearchCase(Category.OR, "brobrouho OR voutrul", 12090, 1202),
            new SearchCase(Category.OR, "joukoupail OR ravehair", 969, 87),
            new SearchCase(Category.OR, "bevais OR quasar", 357, 51));

    private SearchCases() {
    }

    /** The expected match count of a case for a size, or -1 when the appendix has no figure for it. */
    public static long expectedMatches(SearchCase searchCase, int sessions, int messagesPerSession) {
        if (messagesPerSession != Workload.DEFAULT_MESSAGES) {
            return -1;
        }
        return switch (sessions) {
            case Workload.DEFAULT_SESSIONS -> searchCase.matchesAtS5000();
            case Workload.QUICK_SESSIONS -> searchCase.matchesAtS500();
            default -> -1;
        };
    }
}
