/**
 * What processes sharing a store coordinate through it (internal): compression locks and cooldowns,
 * the cross-platform handoff, the gateway's routing peer, the {@code state_meta} key/value store, and
 * Telegram's DM topic mode (the tables the agent creates when a user opts in, topics bound to sessions).
 */
@NullMarked
package dev.hermes.state.core.coordination;

import org.jspecify.annotations.NullMarked;
