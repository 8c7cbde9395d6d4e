@NullMarked
package dev.hermes.state.cli.text;

import org.jspecify.annotations.NullMarked;
