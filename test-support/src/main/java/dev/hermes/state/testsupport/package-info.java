@NullMarked
package dev.hermes.state.testsupport;

import org.jspecify.annotations.NullMarked;
