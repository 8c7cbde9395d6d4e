/**
 * The seam between the store and a database engine (internal): {@link
 * dev.hermes.state.core.backend.Backend}, its full-text search, connection source and transaction, and
 * {@link dev.hermes.state.core.backend.PreparedQuery}, the one way to run a statement kept prepared;
 * beside it the search rules both engines share (the Hermes query language, the CJK fallback, the
 * context length). Names no implementation.
 */
@NullMarked
package dev.hermes.state.core.backend;

import org.jspecify.annotations.NullMarked;
