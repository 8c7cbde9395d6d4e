package dev.hermes.state.migrations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What each Hermes schema version adds to the store, by name: the columns of {@code sessions} and
 * {@code messages}, the tables, the named indexes and the full-text triggers. A store at version N holds
 * what versions 1 to N added; {@link #at} is that union. Migrations and the up-to-date check decide from
 * these names, never from the version number alone, and a later version is one more entry.
 */
public final class HermesSchema {
    /** One version's additions. */
    public record Additions(List<String> sessionColumns, List<String> messageColumns, List<String> tables,
                     List<String> indexes, List<String> triggers) {
        static Additions none() {
            return new Additions(List.of(), List.of(), List.of(), List.of(), List.of());
        }
    }

    /** Everything a store at one version holds. */
    public record Objects(int version, List<String> sessionColumns, List<String> messageColumns, List<String> tables,
                   List<String> indexes, List<String> triggers) {
        /**
         * From version 11 on, both full-text tables store their own text and their triggers index
         * content, tool name and tool calls, deleting by rowid (version 1's form does not).
         */
        public boolean inlineFullText() {
            return version >= 11;
        }
    }

    /** The first version whose search layout is inline over content, tool name and tool calls. */
    public static final int INLINE_FULL_TEXT = 11;

    private static final Map<Integer, Additions> VERSIONS = versions();

    private HermesSchema() {
    }

    private static Map<Integer, Additions> versions() {
        Map<Integer, Additions> versions = new TreeMap<>();
        versions.put(1, new Additions(
                List.of("id", "source", "user_id", "model", "model_config", "system_prompt", "parent_session_id",
                        "started_at", "ended_at", "end_reason", "message_count", "tool_call_count", "input_tokens",
                        "output_tokens"),
                List.of("id", "session_id", "role", "content", "tool_call_id", "tool_calls", "tool_name", "timestamp",
                        "token_count"),
                List.of("schema_version", "sessions", "messages", "messages_fts"),
                List.of("idx_sessions_source", "idx_sessions_parent", "idx_sessions_started", "idx_messages_session"),
                List.of("messages_fts_insert", "messages_fts_delete", "messages_fts_update")));
        versions.put(2, new Additions(List.of(), List.of("finish_reason"), List.of(), List.of(), List.of()));
        versions.put(3, new Additions(List.of("cache_read_tokens", "cache_write_tokens", "reasoning_tokens",
                "billing_provider", "billing_base_url", "billing_mode", "estimated_cost_usd", "actual_cost_usd",
                "cost_status"), List.of(), List.of(), List.of(), List.of()));
        versions.put(4, new Additions(List.of("title"), List.of(), List.of(), List.of("idx_sessions_title_unique"), List.of()));
        versions.put(5, new Additions(List.of("cost_source", "pricing_version"), List.of(), List.of(), List.of(), List.of()));
        versions.put(6, new Additions(List.of(), List.of("reasoning", "reasoning_details", "codex_reasoning_items"),
                List.of(), List.of(), List.of()));
        versions.put(7, new Additions(List.of(), List.of("reasoning_content"), List.of("state_meta"), List.of(), List.of()));
        versions.put(8, new Additions(List.of("api_call_count"), List.of(), List.of(), List.of(), List.of()));
        versions.put(9, new Additions(List.of(), List.of("codex_message_items"), List.of(), List.of(), List.of()));
        versions.put(10, Additions.none()); // the trigram table comes in its final form with 11
        versions.put(11, new Additions(List.of("handoff_state", "handoff_platform", "handoff_error"), List.of(),
                List.of("messages_fts_trigram"), List.of(),
                List.of("messages_fts_trigram_insert", "messages_fts_trigram_delete", "messages_fts_trigram_update")));
        versions.put(12, new Additions(List.of(), List.of("platform_message_id"), List.of(),
                List.of("idx_messages_platform_msg_id"), List.of()));
        versions.put(13, new Additions(List.of(), List.of("observed"), List.of(), List.of(), List.of()));
        versions.put(14, new Additions(List.of("cwd", "rewind_count", "archived"), List.of("active"),
                List.of("compression_locks"), List.of("idx_compression_locks_expires", "idx_messages_session_active"),
                List.of()));
        versions.put(15, new Additions(List.of(), List.of(), List.of(), List.of("idx_sessions_source_id"), List.of()));
        versions.put(16, new Additions(List.of("git_branch", "git_repo_root"), List.of("compacted"), List.of(), List.of(),
                List.of()));
        versions.put(17, new Additions(List.of("session_key", "chat_id", "chat_type", "thread_id",
                "compression_failure_cooldown_until", "compression_failure_error"), List.of(), List.of(),
                List.of("idx_sessions_session_key", "idx_sessions_gateway_peer", "idx_sessions_handoff_state"), List.of()));
        return Collections.unmodifiableMap(versions);
    }

    /** The newest version described here. */
    public static int newest() {
        return Collections.max(VERSIONS.keySet());
    }

    /** What a store at {@code version} (1 to {@link #newest}) holds. */
    public static Objects at(int version) {
        if (!VERSIONS.containsKey(version)) {
            throw new IllegalArgumentException("no Hermes schema version " + version);
        }
        List<String> sessions = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        List<String> tables = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        List<String> triggers = new ArrayList<>();
        VERSIONS.forEach((v, added) -> {
            if (v <= version) {
                sessions.addAll(added.sessionColumns());
                messages.addAll(added.messageColumns());
                tables.addAll(added.tables());
                indexes.addAll(added.indexes());
                triggers.addAll(added.triggers());
            }
        });
        return new Objects(version, List.copyOf(sessions), List.copyOf(messages), List.copyOf(tables),
                List.copyOf(indexes), List.copyOf(triggers));
    }
}
