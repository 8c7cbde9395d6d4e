/**
 * Token and cost accounting of update_token_counts (internal).
 */
@NullMarked
package dev.hermes.state.core.tokens;

import org.jspecify.annotations.NullMarked;
