/**
 * The SQLite engine behind the seam (internal): pragmas, FTS5, the files' connections. The only
 * package of core that uses {@code org.sqlite} or spells SQLite-specific SQL.
 */
@NullMarked
package dev.hermes.state.core.backend.sqlite;

import org.jspecify.annotations.NullMarked;
