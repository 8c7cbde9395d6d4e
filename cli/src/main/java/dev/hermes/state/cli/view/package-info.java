@NullMarked
package dev.hermes.state.cli.view;

import org.jspecify.annotations.NullMarked;
