/**
 * The entry point of the library: {@link dev.hermes.state.core.StateRepository}, the Hermes session
 * store, and its builder.
 */
@NullMarked
package dev.hermes.state.core;

import org.jspecify.annotations.NullMarked;
