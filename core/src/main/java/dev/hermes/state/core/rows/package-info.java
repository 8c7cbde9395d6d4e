/**
 * Between rows and records (internal): jOOQ records to the API's records, the JSON columns' encoding,
 * timestamps as stored.
 */
@NullMarked
package dev.hermes.state.core.rows;

import org.jspecify.annotations.NullMarked;
