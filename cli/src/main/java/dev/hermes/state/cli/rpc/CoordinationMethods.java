package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.CompressionCooldown;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.HandoffState;
import dev.hermes.state.core.model.Timestamps;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The RPC methods through which processes sharing a store coordinate (schema 17): state_meta, the
 * compression lock and cooldown, the gateway's routing peer, and the cross-platform handoff. The
 * agent returns early, without touching the store, for an empty session id (or holder); these do too.
 * Where the agent swallows a database failure (the lock and cooldown writes: a broken lock must make
 * the caller skip compression, not crash it), these answer its fallback too.
 */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
final class CoordinationMethods {
    private static final double DEFAULT_TTL_SECONDS = 300.0;

    private CoordinationMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- state_meta
        methods.add("get_meta", List.of("key"), p -> {
            String key = p.requiredString("key");
            return store -> store.get().getMeta(key).orElse(null);
        });
        methods.add("set_meta", List.of("key", "value"), p -> {
            String key = p.requiredString("key");
            String value = p.requiredString("value");
            return store -> {
                store.get().setMeta(key, value);
                return null;
            };
        });

        // ---- compression locks
        methods.add("try_acquire_compression_lock", List.of("session_id", "holder", "ttl_seconds"), p -> {
            String id = p.requiredString("session_id");
            String holder = p.requiredString("holder");
            Duration ttl = ttl(p);
            return store -> empty(id) ? false
                    : orFallback(() -> store.get().tryAcquireCompressionLock(id, holder == null ? "" : holder, ttl), false);
        });
        methods.add("refresh_compression_lock", List.of("session_id", "holder", "ttl_seconds"), p -> {
            String id = p.requiredString("session_id");
            String holder = p.requiredString("holder");
            Duration ttl = ttl(p);
            return store -> empty(id) || empty(holder) ? false
                    : orFallback(() -> store.get().refreshCompressionLock(id, holder, ttl), false);
        });
        methods.add("release_compression_lock", List.of("session_id", "holder"), p -> {
            String id = p.requiredString("session_id");
            String holder = p.requiredString("holder");
            return store -> {
                if (!empty(id) && holder != null) {
                    orFallback(() -> {
                        store.get().releaseCompressionLock(id, holder);
                        return null;
                    }, null);
                }
                return null;
            };
        });
        methods.add("get_compression_lock_holder", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> empty(id) ? null : store.get().getCompressionLockHolder(id).orElse(null);
        });

        // ---- compression-failure cooldown
        methods.add("record_compression_failure_cooldown", List.of("session_id", "cooldown_until", "error"), p -> {
            String id = p.requiredString("session_id");
            p.require("cooldown_until");
            Double until = p.optionalDouble("cooldown_until");
            String error = p.string("error");
            return store -> {
                if (!empty(id)) {
                    orFallback(() -> {
                        store.get().recordCompressionFailureCooldown(id, Timestamps.ofEpochSeconds(
                                until == null ? Double.NaN : until), error);
                        return null;
                    }, null);
                }
                return null;
            };
        });
        methods.add("get_compression_failure_cooldown", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> empty(id) ? null : store.get().getCompressionFailureCooldown(id).map(CoordinationMethods::cooldown)
                    .orElse(null);
        });
        methods.add("clear_compression_failure_cooldown", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                if (!empty(id)) {
                    orFallback(() -> {
                        store.get().clearCompressionFailureCooldown(id);
                        return null;
                    }, null);
                }
                return null;
            };
        });

        // ---- gateway peers
        methods.add("record_gateway_session_peer", List.of("session_id", "source", "user_id", "session_key", "chat_id",
                "chat_type", "thread_id"), p -> {
            String id = p.requiredString("session_id");
            GatewayPeer peer = peer(p);
            return store -> {
                if (!empty(id) && !empty(peer.sessionKey())) {
                    store.get().recordGatewaySessionPeer(id, peer);
                }
                return null;
            };
        });
        methods.add("find_latest_gateway_session_for_peer", List.of("source", "user_id", "session_key", "chat_id",
                "chat_type", "thread_id"), p -> {
            GatewayPeer peer = peer(p);
            return store -> empty(peer.sessionKey()) ? null
                    : store.get().findLatestGatewaySessionForPeer(peer).map(SessionRows::of).orElse(null);
        });

        // ---- handoff
        methods.add("request_handoff", List.of("session_id", "platform"), p -> {
            String id = p.requiredString("session_id");
            String platform = p.requiredString("platform");
            return store -> store.get().requestHandoff(id, platform);
        });
        methods.add("get_handoff_state", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            // the agent answers None, and [] below, for any failure of these reads
            return store -> orFallback(() -> store.get().getHandoffState(id).map(CoordinationMethods::handoff).orElse(null), null);
        });
        methods.add("list_pending_handoffs", List.of(), p -> store -> orFallback(
                () -> HermesShapes.sessions(store.get().listPendingHandoffs()), List.of()));
        methods.add("claim_handoff", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().claimHandoff(id);
        });
        methods.add("complete_handoff", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().completeHandoff(id);
                return null;
            };
        });
        methods.add("fail_handoff", List.of("session_id", "error"), p -> {
            String id = p.requiredString("session_id");
            String error = p.requiredString("error");
            return store -> {
                store.get().failHandoff(id, error);
                return null;
            };
        });
    }

    private static boolean empty(@Nullable String value) {
        return value == null || value.isEmpty();
    }

    private static Duration ttl(Params p) {
        double seconds = p.number("ttl_seconds", DEFAULT_TTL_SECONDS);
        if (!Double.isFinite(seconds) || Math.abs(seconds) > 1e15) {
            throw new dev.hermes.state.InvalidArgumentException("ttl_seconds must be a finite number of seconds, got " + seconds);
        }
        long whole = (long) Math.floor(seconds);
        return Duration.ofSeconds(whole, Math.round((seconds - whole) * 1e9));
    }

    private static GatewayPeer peer(Params p) {
        p.require("source");
        return new GatewayPeer(p.string("source") == null ? "" : p.string("source"), p.string("user_id"),
                p.string("session_key"), p.string("chat_id"), p.string("chat_type"), p.string("thread_id"));
    }

    /** The agent answers its fallback when the database fails these writes (it logs a warning). */
    private static <T> @Nullable T orFallback(Supplier<@Nullable T> call, @Nullable T fallback) {
        try {
            return call.get();
        } catch (HermesStateException failure) {
            if (failure.type() == ErrorType.INVALID_ARGUMENT) {
                throw failure;
            }
            return fallback;
        }
    }

    private static Map<String, Object> cooldown(CompressionCooldown cooldown) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cooldown_until", Timestamps.epochSeconds(cooldown.until()));
        row.put("remaining_seconds", cooldown.remainingSeconds());
        row.put("error", cooldown.error());
        return row;
    }

    private static Map<String, Object> handoff(HandoffState state) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("state", state.state());
        row.put("platform", state.platform());
        row.put("error", state.error());
        return row;
    }
}
