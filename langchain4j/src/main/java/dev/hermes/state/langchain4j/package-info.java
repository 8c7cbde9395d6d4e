@NullMarked
package dev.hermes.state.langchain4j;

import org.jspecify.annotations.NullMarked;
