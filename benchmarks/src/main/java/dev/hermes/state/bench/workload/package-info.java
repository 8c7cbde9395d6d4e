@NullMarked
package dev.hermes.state.bench.workload;

import org.jspecify.annotations.NullMarked;
