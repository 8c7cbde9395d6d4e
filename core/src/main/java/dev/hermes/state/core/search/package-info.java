/**
 * The search rules that do not depend on the engine (internal): the Hermes query language, the CJK
 * fallback, the context length.
 */
@NullMarked
package dev.hermes.state.core.search;

import org.jspecify.annotations.NullMarked;
