@NullMarked
package dev.hermes.state.cli.rpc;

import org.jspecify.annotations.NullMarked;
