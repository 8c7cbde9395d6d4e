package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * One result of a store's check ({@code hermes-state doctor}): how bad it is, a stable code that
 * scripts and the documentation's table rely on, what it concerns and, unless it is fine, the
 * command that mends it.
 *
 * @param severity what it means for the store
 * @param code     a stable identifier ({@code fts.integrity}, {@code counters.message_count}...; see docs/operations.md)
 * @param subject  what it concerns: a table, an index, a trigger, a session id, "3 sessions"...
 * @param detail   what was found, in a sentence
 * @param remedy   the command that mends it ({@code hermes-state repair}, {@code hermes-state recover ...}), or
 *                 null for a finding that needs none (fine, or only to be known)
 */
public record Finding(Severity severity, String code, String subject, String detail, @Nullable String remedy) {
    /** How bad a finding is; the order is the order of gravity. */
    public enum Severity {
        /** The check passed. */
        OK,
        /** Something is off but no data is at risk (a counter, a missing index, a large log). */
        WARNING,
        /** Data is damaged or unreachable (a b-tree, the full-text index, a foreign log). */
        ERROR
    }

    public Finding {
        Objects.requireNonNull(severity, "severity");
        if (code == null || !code.matches("[a-z_]+(\\.[a-z_0-9]+)*")) {
            throw new IllegalArgumentException("a finding's code is dotted lower-case words: " + code);
        }
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(detail, "detail");
    }

    public static Finding ok(String code, String subject, String detail) {
        return new Finding(Severity.OK, code, subject, detail, null);
    }

    public static Finding warning(String code, String subject, String detail, @Nullable String remedy) {
        return new Finding(Severity.WARNING, code, subject, detail, remedy);
    }

    public static Finding error(String code, String subject, String detail, @Nullable String remedy) {
        return new Finding(Severity.ERROR, code, subject, detail, remedy);
    }

    /** True for a warning or an error. */
    public boolean isProblem() {
        return severity != Severity.OK;
    }
}
