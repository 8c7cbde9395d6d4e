/** What observing the store costs per operation (a program run by hand). */
@NullMarked
package dev.hermes.state.bench.observation;

import org.jspecify.annotations.NullMarked;
