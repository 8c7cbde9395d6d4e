/**
 * Keyset-pagination cursors (internal).
 */
@NullMarked
package dev.hermes.state.core.paging;

import org.jspecify.annotations.NullMarked;
