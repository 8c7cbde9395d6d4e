@NullMarked
package dev.hermes.state.memory;

import org.jspecify.annotations.NullMarked;
