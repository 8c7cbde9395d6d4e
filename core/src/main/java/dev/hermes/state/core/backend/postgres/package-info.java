/**
 * The PostgreSQL engine behind the seam (internal): the server's connections (HikariCP), the
 * store's write lock, SQLSTATE classification, the tsvector search. The only package of core that
 * spells PostgreSQL-specific SQL.
 */
@NullMarked
package dev.hermes.state.core.backend.postgres;

import org.jspecify.annotations.NullMarked;
