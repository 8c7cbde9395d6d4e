@NullMarked
package dev.hermes.state.springboot;

import org.jspecify.annotations.NullMarked;
