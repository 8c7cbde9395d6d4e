@NullMarked
package dev.hermes.state.bench.measure;

import org.jspecify.annotations.NullMarked;
