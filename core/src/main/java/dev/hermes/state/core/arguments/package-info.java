/**
 * The argument checks of the public API (internal).
 */
@NullMarked
package dev.hermes.state.core.arguments;

import org.jspecify.annotations.NullMarked;
