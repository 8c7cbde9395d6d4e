@NullMarked
package dev.hermes.state.cli;

import org.jspecify.annotations.NullMarked;
