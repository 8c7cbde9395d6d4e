@NullMarked
package dev.hermes.state.cli.json;

import org.jspecify.annotations.NullMarked;
