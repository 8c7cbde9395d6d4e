/** The W1-W9 benchmark workload of BENCHMARK.md, run through the public core API, with a raw-JDBC baseline. */
package dev.hermes.state.bench;
