@NullMarked
package dev.hermes.state.bench.report;

import org.jspecify.annotations.NullMarked;
