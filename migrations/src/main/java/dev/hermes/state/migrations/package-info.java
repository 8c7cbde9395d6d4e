/**
 * The schema of the Hermes store, versions 1 to 6, and the {@link dev.hermes.state.migrations.Migrator}
 * that creates, adopts and migrates SQLite files and PostgreSQL schemas, and refuses what it must not touch.
 */
@NullMarked
package dev.hermes.state.migrations;

import org.jspecify.annotations.NullMarked;
