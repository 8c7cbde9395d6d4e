package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.bench.engine.SqliteDatabases;
import dev.hermes.state.core.StateRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The W1 batch row alone at a tiny size: every message of the plan goes in on both sides, one batch per session. */
class BatchAppendsTest {
    @Test
    void bothSidesGetEveryMessageOneBatchPerSession(@TempDir Path folder) throws Exception {
        IngestPlan plan = IngestPlan.build(Workload.MIN_SESSIONS, 3, new ZipfSampler(Vocabulary.build()));
        try (SqliteDatabases databases = new SqliteDatabases(folder, null, StateRepository.DEFAULT_SCHEMA_VERSION)) {
            List<W1Ingest.BatchResult> results = BatchAppends.run(databases, plan);
            assertEquals(2, results.size());
            for (W1Ingest.BatchResult result : results) {
                assertEquals(Workload.MIN_SESSIONS * 3, result.messages());
                assertEquals(Workload.MIN_SESSIONS, result.batches().count());
            }
            try (StateRepository store = databases.openStore("batch")) {
                assertEquals(Workload.MIN_SESSIONS * 3, store.messageCount(null));
            }
        }
    }
}
