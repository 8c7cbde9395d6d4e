@NullMarked
package dev.hermes.state.postgresql;

import org.jspecify.annotations.NullMarked;
