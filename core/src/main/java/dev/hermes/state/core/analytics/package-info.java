/**
 * Usage analytics and store statistics, summed by the database over {@code sessions} (internal).
 */
@NullMarked
package dev.hermes.state.core.analytics;

import org.jspecify.annotations.NullMarked;
