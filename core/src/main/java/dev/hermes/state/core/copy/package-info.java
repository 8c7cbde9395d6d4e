/**
 * Copying a whole store to another (internal): {@link dev.hermes.state.core.copy.StoreCopy}, behind
 * {@code StateRepository.copyTo}. Rows are read and written as the columns hold them (no conversion
 * to the API's records), checked for what the target can store, and compared by a content digest.
 */
@NullMarked
package dev.hermes.state.core.copy;

import org.jspecify.annotations.NullMarked;
