package dev.hermes.state.bench.study;

import dev.hermes.state.bench.data.ChainPlan;
import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.SplitMix64;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.bench.workload.W5Lineage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.StateRepository;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds the database the W2/W4/W6 studies read: W1's schedule (one transaction per call, through the
 * store, so the file and its FTS5 segments look exactly as after W1), then W5's two chains (so W6
 * exports S + 1,101 sessions as in the benchmark). Usage: StudyDb FILE [S] [M].
 */
public final class StudyDb {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : Workload.DEFAULT_SESSIONS;
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : Workload.DEFAULT_MESSAGES;
        if (Files.exists(file)) {
            throw new IllegalStateException(file + " exists");
        }
        ZipfSampler sampler = new ZipfSampler(Vocabulary.build());
        IngestPlan plan = IngestPlan.build(sessions, messages, sampler);
        long start = System.nanoTime();
        try (StateRepository store = StateRepository.open(file)) {
            for (IngestPlan.Step step : plan.steps()) {
                if (step instanceof IngestPlan.CreateSession create) {
                    store.createSession(NewSession.builder(create.id(), create.source()).model(Workload.MODEL).build());
                } else if (step instanceof IngestPlan.Append append) {
                    store.appendMessage(append.sessionId(), append.message());
                }
            }
            SplitMix64 chainStream = new SplitMix64(SplitMix64.CHAIN);
            for (ChainPlan chain : new ChainPlan[]{ChainPlan.next("chain99", 99, sampler, chainStream),
                    ChainPlan.next("chain1000", 1000, sampler, chainStream)}) {
                W5Lineage.buildAndWalk(store, chain);
            }
        }
        System.out.printf("built %s: S=%d M=%d in %.1f s%n", file, sessions, messages, (System.nanoTime() - start) / 1e9);
    }

}
