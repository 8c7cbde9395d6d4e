/**
 * The store in an application's metrics and traces, with Micrometer (an optional dependency: nothing
 * here is loaded unless the builder is given a registry). Names and tags: docs/observability.md.
 */
@NullMarked
package dev.hermes.state.core.observation;

import org.jspecify.annotations.NullMarked;
