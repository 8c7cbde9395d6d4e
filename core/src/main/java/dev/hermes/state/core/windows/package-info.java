/**
 * Conversation windows of the chat memories: load, save (extend, trim or continue in a compression
 * child), forget (internal).
 */
@NullMarked
package dev.hermes.state.core.windows;

import org.jspecify.annotations.NullMarked;
