/**
 * The sessions table: create, end, reopen, read, resolve, count, list (internal).
 */
@NullMarked
package dev.hermes.state.core.sessions;

import org.jspecify.annotations.NullMarked;
