@NullMarked
package dev.hermes.state.bench.process;

import org.jspecify.annotations.NullMarked;
