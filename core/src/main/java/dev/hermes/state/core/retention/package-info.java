/**
 * What leaves the store (internal): export, delete (one, several, the empty ones, the TUI's ghosts, with
 * schema 17's delegate cascade), prune, the transcript files beside the store, the throttled
 * auto-maintenance.
 */
@NullMarked
package dev.hermes.state.core.retention;

import org.jspecify.annotations.NullMarked;
