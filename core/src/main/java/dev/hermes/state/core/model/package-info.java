/**
 * The records and queries of the public API: what {@link dev.hermes.state.core.StateRepository} takes
 * and returns. Immutable values; nothing here touches the database.
 */
@NullMarked
package dev.hermes.state.core.model;

import org.jspecify.annotations.NullMarked;
