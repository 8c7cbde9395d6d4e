package dev.hermes.state.core.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code sessions} columns a {@link Session} was read from. A store on an older file (a read-only
 * store on a version-8 file, a store kept at version 6) lacks some of today's columns; their components
 * then hold the column's default (null, 0, false), and this says so, for callers that reproduce the
 * agent's {@code get_session} dict, whose keys are the file's columns. {@link #names()} lists them in
 * the order today's agent declares its table, which for the version-6 columns is also the order of the
 * version-6 agent. Instances are shared: there are few shapes of file.
 */
public final class SessionColumns {
    /** Every column of today's agent (schema 17), in the order it declares them. */
    private static final List<String> V17_ORDER = List.of(
            "id", "source", "user_id", "session_key", "chat_id", "chat_type", "thread_id", "model", "model_config",
            "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason", "message_count",
            "tool_call_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
            "reasoning_tokens", "cwd", "git_branch", "git_repo_root", "billing_provider", "billing_base_url",
            "billing_mode", "estimated_cost_usd", "actual_cost_usd", "cost_status", "cost_source", "pricing_version",
            "title", "api_call_count", "handoff_state", "handoff_platform", "handoff_error",
            "compression_failure_cooldown_until", "compression_failure_error", "rewind_count", "archived");

    /** The columns version 17 added to version 6's. */
    private static final Set<String> ADDED_AFTER_V6 = Set.of(
            "session_key", "chat_id", "chat_type", "thread_id", "cwd", "git_branch", "git_repo_root",
            "api_call_count", "handoff_state", "handoff_platform", "handoff_error",
            "compression_failure_cooldown_until", "compression_failure_error", "rewind_count", "archived");

    private static final Map<Set<String>, SessionColumns> SHARED = new ConcurrentHashMap<>();

    /** Every column of schema version 17. */
    public static final SessionColumns V17 = of(V17_ORDER);

    /** The 26 columns of schema version 6. */
    public static final SessionColumns V6 = of(V17_ORDER.stream().filter(name -> !ADDED_AFTER_V6.contains(name)).toList());

    private final List<String> names;
    private final Set<String> lookup;

    private SessionColumns(List<String> names) {
        this.names = List.copyOf(names);
        this.lookup = Set.copyOf(names);
    }

    /**
     * The columns among {@code present} that the store knows (names compared case-insensitively;
     * unknown ones, such as another build's extra column, are left out), in today's agent's order.
     */
    public static SessionColumns of(Collection<String> present) {
        Set<String> lower = new java.util.HashSet<>();
        for (String name : present) {
            lower.add(name.toLowerCase(Locale.ROOT));
        }
        List<String> known = new ArrayList<>();
        for (String name : V17_ORDER) {
            if (lower.contains(name)) {
                known.add(name);
            }
        }
        return SHARED.computeIfAbsent(Set.copyOf(known), key -> new SessionColumns(known));
    }

    /** The column names, in the order today's agent declares them. */
    public List<String> names() {
        return names;
    }

    public boolean contains(String column) {
        return lookup.contains(column);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SessionColumns columns && columns.lookup.equals(lookup);
    }

    @Override
    public int hashCode() {
        return lookup.hashCode();
    }

    @Override
    public String toString() {
        if (equals(V17)) {
            return "the 41 columns of schema 17";
        }
        if (equals(V6)) {
            return "the 26 columns of schema 6";
        }
        return names.toString();
    }
}
