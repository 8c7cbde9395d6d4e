package dev.hermes.state.bench.data;

import dev.hermes.state.bench.data.IngestPlan.Append;
import dev.hermes.state.bench.data.IngestPlan.CreateSession;
import dev.hermes.state.bench.data.SearchCases.SearchCase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every fingerprint of BENCHMARK.md section 1.8, for both published sizes, from the real generator. */
class GeneratorFingerprintTest {
    private static Vocabulary vocabulary;
    private static ZipfSampler sampler;
    private static IngestPlan quick;
    private static IngestPlan full;

    @BeforeAll
    static void generate() {
        vocabulary = Vocabulary.build();
        sampler = new ZipfSampler(vocabulary);
        quick = IngestPlan.build(500, 40, sampler);
        full = IngestPlan.build(5000, 40, sampler);
    }

    @Test
    void splitMixMatchesTheReferenceValue() {
        assertEquals(0xBDD732262FEB6E95L, new SplitMix64(42).next());
        assertEquals(-4767286540954276203L, new SplitMix64(42).next());
    }

    @Test
    void vocabularyHasItsPublishedHashAndRanks() {
        assertEquals(2007, vocabulary.size());
        assertEquals("3955edcac4a088dcf5cf7fb902c9743ed08c0fcb53fa2add89547b1fe125a958",
                Fingerprints.vocabularySha256(vocabulary));
        assertEquals(List.of("wune", "serai", "sistefout", "poufouten", "covoun", "facutroun", "vosai", "docker",
                "venin", "stouhain", "kousar", "dofoux", "fubadum", "tozo", "deploy", "zosus", "braja", "lubaitain",
                "macofoun", "busaix"), vocabulary.words().subList(0, 20));
        assertEquals(List.of("ludon", "ravehair", "necou", "saipiwoul", "gobair", "hohotoum", "tagobrou", "cicer",
                "bevais"), vocabulary.words().subList(1998, 2007));
        assertEquals("kubernetes", vocabulary.word(40));
        assertEquals("postgres", vocabulary.word(60));
        assertEquals("brobrouho", vocabulary.word(100));
        assertEquals("migration", vocabulary.word(120));
        assertEquals("voutrul", vocabulary.word(200));
        assertEquals("latency", vocabulary.word(250));
        assertEquals("rollback", vocabulary.word(500));
        assertEquals("joukoupail", vocabulary.word(1000));
        assertEquals("ravehair", vocabulary.word(2000));
        assertTrue(!vocabulary.words().contains("quasar"));
        assertEquals(5_909_955_199L, sampler.totalWeight());
    }

    @Test
    void quickContentsHaveTheirPublishedHashAndLength() {
        assertEquals(20_000, quick.appends().size());
        assertEquals("14140df38b58fba103f810377c22b39983087719d8d94ffe18e8eecd7168fd3a", quick.contentSha256());
        assertEquals(5_650_475L, quick.totalContentCharacters());
    }

    @Test
    void fullContentsHaveTheirPublishedHashAndLength() {
        assertEquals(200_000, full.appends().size());
        assertEquals("c8ef4de5adc5529fd689bdf8295a1504ea637dfe40bdd456c7a5b65a3fdf8c87", full.contentSha256());
        assertEquals(56_529_471L, full.totalContentCharacters());
    }

    @Test
    void firstMessageIsTheReferenceText() {
        for (IngestPlan plan : List.of(quick, full)) {
            Append first = plan.appends().get(0);
            assertEquals("bench-000000", first.sessionId());
            assertEquals("user", first.message().role());
            assertEquals("trasoux docker giwal jiki joukechet stouhain covoun doupes saigun ginim wune foulil "
                    + "stouhain chajo covoun kaile kumit dofoux lupitrait cubrai stoujit sistefout zaizam rafu serai "
                    + "kousar vimitat busaix vosai covoun juroun fubadum wune wune wune poufouten faimaix wune covoun "
                    + "stouhain", first.message().text());
        }
    }

    @Test
    void toolCallsAreThreePerSession() {
        assertEquals(1_500, quick.toolCalls());
        assertEquals(15_000, full.toolCalls());
        long withCalls = full.appends().stream().filter(a -> a.message().toolCalls() != null).count();
        long toolAnswers = full.appends().stream().filter(a -> a.message().role().equals("tool")).count();
        assertEquals(15_000, withCalls);
        assertEquals(15_000, toolAnswers);
        // the first tool-calling message is j = 9 of bench-000000: in the waves of 50 sessions it has ordinal 9*50
        Append firstCall = full.appends().get(9 * 50);
        assertEquals("bench-000000", firstCall.sessionId());
        assertEquals(9, firstCall.indexInSession());
        assertEquals("[{id=call_1, type=function, function={name=terminal, arguments={\"cmd\": \"ls\"}}}]",
                firstCall.message().toolCalls().value().toString());
        Append answer = full.appends().get(10 * 50);
        assertEquals("tool", answer.message().role());
        assertEquals("call_1", answer.message().toolCallId());
        assertEquals("terminal", answer.message().toolName());
        // the counter runs over all sessions in append order: bench-000001's first call is call_2
        Append secondCall = full.appends().get(9 * 50 + 1);
        assertEquals("bench-000001", secondCall.sessionId());
        assertEquals("call_2", ((Map<?, ?>) ((List<?>) secondCall.message().toolCalls().value()).get(0)).get("id"));
    }

    @Test
    void quasarSitsAtThePublishedOrdinals() {
        assertArrayEquals(Fingerprints.S5000.quasarOrdinals(), full.quasarOrdinals());
        assertArrayEquals(new int[]{523, 1318, 1867, 2175, 3509, 5110, 5394, 5450, 6590, 6981, 9929, 10109, 10277,
                12549, 12797, 12902, 13176, 14770, 15425, 16781, 17216, 17361, 18037, 18613, 19523}, quick.quasarOrdinals());
        for (IngestPlan plan : List.of(quick, full)) {
            long occurrences = plan.appends().stream()
                    .mapToLong(a -> List.of(a.message().text().split(" ")).stream().filter("quasar"::equals).count())
                    .sum();
            assertEquals(25, occurrences);
            for (int ordinal : plan.quasarOrdinals()) {
                assertTrue(plan.appends().get(ordinal).message().text().contains("quasar"));
            }
        }
    }

    @Test
    void ingestRunsInWavesOfFiftySessions() {
        List<IngestPlan.Step> steps = quick.steps();
        assertEquals(20_500, steps.size());
        assertEquals(new CreateSession(0, "bench-000000", "cli"), steps.get(0));
        assertEquals("bench-000000", ((Append) steps.get(1)).sessionId());
        assertEquals(new CreateSession(1, "bench-000001", "telegram"), steps.get(2));
        // after the first wave's 50 creates + 50 first messages, message 1 of session 0 follows
        Append second = (Append) steps.get(100);
        assertEquals("bench-000000", second.sessionId());
        assertEquals(1, second.indexInSession());
        // session 50 starts right after message 39 of session 49
        assertEquals(new CreateSession(50, "bench-000050", "cli"), steps.get(100 + 39 * 50));
        assertEquals(List.of("user", "assistant", "user"), List.of(((Append) steps.get(1)).message().role(),
                second.message().role(), ((Append) steps.get(150)).message().role()));
    }

    @Test
    void readSampleStartsWithThePublishedIds() {
        assertEquals(List.of("bench-003825", "bench-000332", "bench-004864", "bench-003697", "bench-004655"),
                ReadSample.sessionIds(5000).subList(0, 5));
        assertEquals(List.of("bench-000325", "bench-000332", "bench-000364", "bench-000197", "bench-000155"),
                ReadSample.sessionIds(500).subList(0, 5));
        assertEquals(200, ReadSample.sessionIds(500).size());
    }

    @Test
    void fingerprintCheckFindsNoMismatchForBothSizes() {
        assertEquals(List.of(), Fingerprints.mismatches(vocabulary, sampler, quick, ReadSample.sessionIds(500)));
        assertEquals(List.of(), Fingerprints.mismatches(vocabulary, sampler, full, ReadSample.sessionIds(5000)));
        assertNull(Fingerprints.published(120, 4));
    }

    @Test
    void roleScriptOfFortyMessages() {
        List<Turn> turns = Turn.script(40);
        assertEquals(Turn.ASSISTANT_WITH_TOOL_CALL, turns.get(9));
        assertEquals(Turn.ASSISTANT_WITH_TOOL_CALL, turns.get(20));
        assertEquals(Turn.ASSISTANT_WITH_TOOL_CALL, turns.get(31));
        assertEquals(Turn.TOOL, turns.get(10));
        assertEquals(Turn.TOOL, turns.get(21));
        assertEquals(Turn.TOOL, turns.get(32));
        assertEquals(Turn.USER, turns.get(39));
        assertEquals(19, turns.stream().filter(t -> t == Turn.USER).count());
        assertEquals(18, turns.stream().filter(t -> t == Turn.ASSISTANT || t == Turn.ASSISTANT_WITH_TOOL_CALL).count());
        assertEquals(3, turns.stream().filter(t -> t == Turn.TOOL).count());
    }

    @Test
    void quickMatchCountsEqualTheAppendix(@TempDir Path scratch) throws Exception {
        List<String> contents = quick.appends().stream().map(a -> a.message().text()).toList();
        Map<String, Long> counts = MatchCounts.ofContents(contents, scratch);
        assertEquals(60, counts.size());
        for (SearchCase searchCase : SearchCases.ALL) {
            assertEquals(searchCase.matchesAtS500(), counts.get(searchCase.query()), searchCase.query());
        }
        assertEquals(List.of(), MatchCounts.mismatches(counts, 500, 40));
    }
}
