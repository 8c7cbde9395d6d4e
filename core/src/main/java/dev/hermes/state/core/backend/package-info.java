/**
 * The seam between the store and a database engine (internal): {@link
 * dev.hermes.state.core.backend.Backend}, its full-text search, connection source and transaction, and
 * {@link dev.hermes.state.core.backend.PreparedQuery}, the one way to run a statement kept prepared.
 * Names no implementation.
 */
@NullMarked
package dev.hermes.state.core.backend;

import org.jspecify.annotations.NullMarked;
