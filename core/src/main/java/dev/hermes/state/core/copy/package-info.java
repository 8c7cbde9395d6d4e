/**
 * A whole store into another place (internal): {@link dev.hermes.state.core.copy.StoreCopy}, behind
 * {@code StateRepository.copyTo}, reads and writes rows as the columns hold them (no conversion to the
 * API's records), checked for what the target can store, and compared by a content digest; and backups
 * of a live store, full and incremental, verified, with a manifest beside each.
 */
@NullMarked
package dev.hermes.state.core.copy;

import org.jspecify.annotations.NullMarked;
