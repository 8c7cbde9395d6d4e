/**
 * The rich session listing, offset and keyset pages (internal).
 */
@NullMarked
package dev.hermes.state.core.listing;

import org.jspecify.annotations.NullMarked;
