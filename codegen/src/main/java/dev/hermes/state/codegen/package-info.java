@NullMarked
package dev.hermes.state.codegen;

import org.jspecify.annotations.NullMarked;
