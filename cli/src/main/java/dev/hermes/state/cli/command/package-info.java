@NullMarked
package dev.hermes.state.cli.command;

import org.jspecify.annotations.NullMarked;
