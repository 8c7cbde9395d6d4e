/**
 * The export formats of {@code sessions export} beside JSON lines: Markdown (a file per session and
 * their SHA-256 sums) and one self-contained HTML page; and the redaction every format shares.
 */
@NullMarked
package dev.hermes.state.cli.export;

import org.jspecify.annotations.NullMarked;
