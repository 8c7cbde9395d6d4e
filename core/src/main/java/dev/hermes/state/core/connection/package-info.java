/**
 * How a store opens and what it holds open (internal): settings, backend choice, check or migrate; one
 * writer behind a fair lock, a small pool of readers, the statements kept prepared on each, and the
 * store's one jOOQ configuration.
 */
@NullMarked
package dev.hermes.state.core.connection;

import org.jspecify.annotations.NullMarked;
