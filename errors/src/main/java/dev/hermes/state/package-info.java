/**
 * What can go wrong, as the public exception types of hermes-state (each with its RPC wire name in
 * {@link dev.hermes.state.ErrorType}), and {@link dev.hermes.state.RetryPolicy}: how long a write waits
 * for a busy database.
 */
@NullMarked
package dev.hermes.state;

import org.jspecify.annotations.NullMarked;
