@NullMarked
package dev.hermes.state.bench.memory;

import org.jspecify.annotations.NullMarked;
