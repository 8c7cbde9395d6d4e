/**
 * A session's messages: append (the hottest write), read, page, count, clear (internal).
 */
@NullMarked
package dev.hermes.state.core.messages;

import org.jspecify.annotations.NullMarked;
