/**
 * Sessions (internal): the table's create, end, reopen, read, resolve, count; titles (unique, looked up,
 * numbered along a lineage); token and cost accounting; compression chains and parent/child trees; the
 * rich listing and its pages; usage analytics summed by the database.
 */
@NullMarked
package dev.hermes.state.core.sessions;

import org.jspecify.annotations.NullMarked;
