@NullMarked
package dev.hermes.state.cli.stats;

import org.jspecify.annotations.NullMarked;
