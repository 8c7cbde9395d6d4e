package dev.hermes.state;

/**
 * The classes of failure every public operation reports, with the wire name the RPC uses for each
 * (docs/behaviour.md#rpc, {@code error.type}).
 */
public enum ErrorType {
    INVALID_ARGUMENT("invalid_argument"),
    CONSTRAINT_VIOLATION("constraint_violation"),
    BUSY("busy"),
    SCHEMA_TOO_NEW("schema_too_new"),
    NOT_A_DATABASE("not_a_database"),
    IO("io"),
    INTERNAL("internal");

    private final String wireName;

    ErrorType(String wireName) {
        this.wireName = wireName;
    }

    /** The snake_case name used by the JSON-lines RPC and the {@code --json} output. */
    public String wireName() {
        return wireName;
    }
}
