@NullMarked
package dev.hermes.state.cli.demo;

import org.jspecify.annotations.NullMarked;
