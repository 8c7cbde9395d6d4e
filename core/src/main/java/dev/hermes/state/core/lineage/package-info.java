/**
 * Compression chains and parent/child trees as recursive queries (internal).
 */
@NullMarked
package dev.hermes.state.core.lineage;

import org.jspecify.annotations.NullMarked;
