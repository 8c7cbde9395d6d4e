@NullMarked
package dev.hermes.state.cli.launch;

import org.jspecify.annotations.NullMarked;
