/**
 * Python's text rules the store follows, defined once (internal).
 */
@NullMarked
package dev.hermes.state.core.text;

import org.jspecify.annotations.NullMarked;
