@NullMarked
package dev.hermes.state.bench.engine;

import org.jspecify.annotations.NullMarked;
