package dev.hermes.state.bench.report;

import dev.hermes.state.bench.workload.W1Ingest;
import dev.hermes.state.bench.workload.W2Search;
import dev.hermes.state.bench.workload.W3Listing;
import dev.hermes.state.bench.workload.W4Read;
import dev.hermes.state.bench.workload.W5Lineage;
import dev.hermes.state.bench.workload.W6Export;
import dev.hermes.state.bench.workload.W7Prune;
import dev.hermes.state.bench.workload.W8ColdOpen;
import dev.hermes.state.bench.workload.W9Concurrency;

import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Everything one run measured, ours and the raw-JDBC baseline side by side, plus the extras the
 * issue's targets need (batch ingest, the 10,000-deep chain, VACUUM, the S=500 reference for W3).
 */
public record RunResults(
        int sessions,
        int messagesPerSession,
        W1Ingest.Result w1,
        W1Ingest.Result rawW1,
        /* SQLite only (its checkpoint policy): null on PostgreSQL */
        W1Ingest.@Nullable Result rawCheckpointW1,
        W1Ingest.BatchResult batch,
        W1Ingest.BatchResult rawBatch,
        W2Search.Result w2,
        W2Search.Result rawW2,
        List<String> w2QueriesWithDifferentHits,
        W3Listing.Result w3,
        W3Reference w3Reference,
        W4Read.Result w4,
        W4Read.Result rawW4,
        W5Lineage.Result w5,
        W5Lineage.Chain deepChain,
        W6Export.Result w6,
        W7Prune.Result w7,
        long vacuumReclaimedBytes,
        W8ColdOpen.Result w8,
        W9Concurrency.Result w9) {

    /**
     * The rich-listing p50 per offset position (0, 100, S/2, S−20) of an earlier S=500 run, read from
     * its result file; {@code file} null when none was found ({@code note} says where it was looked for).
     */
    public record W3Reference(@Nullable Path file, List<Double> richP50ByPosition, @Nullable String note) {
    }
}
