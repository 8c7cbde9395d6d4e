/**
 * {@code hermes-state serve}: a read-only session browser and usage analytics over HTTP, built on
 * core's public API only. {@link dev.hermes.state.serve.StateServer} is the entry point.
 */
@NullMarked
package dev.hermes.state.serve;

import org.jspecify.annotations.NullMarked;
