/**
 * Operating a store: its check ({@link dev.hermes.state.core.maintenance.StoreDoctor#check}), the repair of
 * what can be mended without losing data, and the salvage of a damaged file into a new store
 * ({@link dev.hermes.state.core.maintenance.StoreRecovery}). They work on the file or schema itself, not
 * through an open {@code StateRepository}: a store in trouble is exactly one that may not open.
 */
@NullMarked
package dev.hermes.state.core.maintenance;

import org.jspecify.annotations.NullMarked;
