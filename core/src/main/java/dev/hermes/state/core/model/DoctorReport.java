package dev.hermes.state.core.model;

import java.util.List;
import java.util.Objects;

/**
 * What a store's check found ({@code hermes-state doctor}): every check's finding, the fine ones
 * included, in the order the checks ran.
 *
 * @param store         the file or PostgreSQL schema checked (never with a password)
 * @param schemaVersion the version the store claims (0 when it cannot be read)
 * @param findings      the findings
 */
public record DoctorReport(String store, int schemaVersion, List<Finding> findings) {
    public DoctorReport {
        Objects.requireNonNull(store, "store");
        findings = List.copyOf(findings);
    }

    /** The gravest severity found ({@link Finding.Severity#OK} when every check passed). */
    public Finding.Severity worst() {
        return findings.stream().map(Finding::severity).max(Enum::compareTo).orElse(Finding.Severity.OK);
    }

    /** The warnings and errors. */
    public List<Finding> problems() {
        return findings.stream().filter(Finding::isProblem).toList();
    }

    /** The codes of the warnings and errors, in order, each once. */
    public List<String> problemCodes() {
        return problems().stream().map(Finding::code).distinct().toList();
    }
}
