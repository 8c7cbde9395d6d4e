/**
 * Telegram DM topic mode (internal): the two tables the agent creates when a user opts in with
 * {@code /topic}, and the bindings of topics to sessions.
 */
@NullMarked
package dev.hermes.state.core.telegram;

import org.jspecify.annotations.NullMarked;
