/**
 * The rules of a SQLite file shared with a live Python agent: every connection of this process to a
 * file opens through {@link dev.hermes.state.sqlite.LiveFiles} (POSIX locks are per process, so no
 * descriptor of a live file may be opened and closed beside SQLite), the file and its companions on disk
 * ({@link dev.hermes.state.sqlite.SqliteFile}), what its bytes say ({@link dev.hermes.state.sqlite.SqliteHeaders}),
 * how a connection opens it ({@link dev.hermes.state.sqlite.SqliteConnections}), and how SQLite's result codes map to our exceptions
 * ({@link dev.hermes.state.sqlite.SqliteErrors}).
 */
@NullMarked
package dev.hermes.state.sqlite;

import org.jspecify.annotations.NullMarked;
