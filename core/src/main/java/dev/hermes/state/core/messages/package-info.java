/**
 * A session's messages (internal): append (the hottest write), read, page, count, clear; and the chat
 * memories' conversation windows: load, save (extend, trim or continue in a compression child), forget.
 */
@NullMarked
package dev.hermes.state.core.messages;

import org.jspecify.annotations.NullMarked;
