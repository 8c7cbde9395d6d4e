/**
 * What leaves the store: export, delete, prune (internal).
 */
@NullMarked
package dev.hermes.state.core.retention;

import org.jspecify.annotations.NullMarked;
