@NullMarked
package dev.hermes.state.bench.raw;

import org.jspecify.annotations.NullMarked;
