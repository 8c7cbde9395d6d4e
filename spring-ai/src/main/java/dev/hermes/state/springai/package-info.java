@NullMarked
package dev.hermes.state.springai;

import org.jspecify.annotations.NullMarked;
