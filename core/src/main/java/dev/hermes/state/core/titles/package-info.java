/**
 * Session titles: unique titles, lookups by title, numbering along a lineage (internal).
 */
@NullMarked
package dev.hermes.state.core.titles;

import org.jspecify.annotations.NullMarked;
