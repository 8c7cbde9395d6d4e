/**
 * JSON read as Python's {@code json.loads} reads it, for the store and for callers that speak Hermes'
 * JSON (public API).
 */
@NullMarked
package dev.hermes.state.core.json;

import org.jspecify.annotations.NullMarked;
