@NullMarked
package dev.hermes.state.bench.data;

import org.jspecify.annotations.NullMarked;
