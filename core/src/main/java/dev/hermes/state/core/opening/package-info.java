/**
 * How a store opens: settings, backend choice, check or migrate (internal).
 */
@NullMarked
package dev.hermes.state.core.opening;

import org.jspecify.annotations.NullMarked;
