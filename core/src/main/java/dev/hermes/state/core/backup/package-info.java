/**
 * Backups of a live store (internal): full and incremental, verified, with a manifest beside each.
 */
@NullMarked
package dev.hermes.state.core.backup;

import org.jspecify.annotations.NullMarked;
