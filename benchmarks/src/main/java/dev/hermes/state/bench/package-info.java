/** The W1-W9 benchmark workload of BENCHMARK.md, run through the public core API, with a raw-JDBC baseline. */
@NullMarked
package dev.hermes.state.bench;

import org.jspecify.annotations.NullMarked;
