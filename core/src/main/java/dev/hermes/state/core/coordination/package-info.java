/**
 * What processes sharing a store coordinate through it (internal): compression locks and cooldowns,
 * the cross-platform handoff, the gateway's routing peer, and the {@code state_meta} key/value store.
 */
@NullMarked
package dev.hermes.state.core.coordination;

import org.jspecify.annotations.NullMarked;
