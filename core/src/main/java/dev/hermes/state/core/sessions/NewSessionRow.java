package dev.hermes.state.core.sessions;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.rows.JsonColumns;
import org.jspecify.annotations.Nullable;

/**
 * A new session's columns, checked and encoded before the write transaction starts.
 *
 * @param modelConfig       the JSON text a store kept at version 6 writes (compact, as it always did)
 * @param modelConfigPython the JSON text the agent's {@code json.dumps} writes, which schema 17's rules store
 */
public record NewSessionRow(String id, String source, @Nullable String userId, @Nullable String model,
                            @Nullable String modelConfig, @Nullable String modelConfigPython,
                            @Nullable String systemPrompt, @Nullable String parentId,
                            @Nullable String sessionKey, @Nullable String chatId, @Nullable String chatType,
                            @Nullable String threadId, @Nullable String cwd) {

    /** A session with only the version-6 columns (what hermes-state's own writers create). */
    public NewSessionRow(String id, String source, @Nullable String userId, @Nullable String model,
                         @Nullable String modelConfig, @Nullable String systemPrompt, @Nullable String parentId) {
        this(id, source, userId, model, modelConfig, modelConfig, systemPrompt, parentId, null, null, null, null, null);
    }

    public static NewSessionRow of(@Nullable NewSession given) {
        NewSession session = Arguments.required(given, "session");
        String id = Arguments.id(session.id(), "session id");
        String source = Arguments.label(session.source(), "source");
        String model = Arguments.optionalLabel(session.model(), "model");
        String modelConfig = Arguments.optionalText(JsonColumns.encode(session.modelConfig(), "model_config"), "model_config");
        String modelConfigPython = modelConfig == null ? null
                : Arguments.optionalText(pythonJson(session.modelConfig(), modelConfig), "model_config");
        String systemPrompt = Arguments.optionalText(session.systemPrompt(), "system prompt");
        String userId = Arguments.optionalLabel(session.userId(), "user id");
        String parentId = Arguments.optionalId(session.parentSessionId(), "parent session id");
        return new NewSessionRow(id, source, userId, model, modelConfig, modelConfigPython, systemPrompt, parentId,
                Arguments.optionalLabel(session.sessionKey(), "session key"),
                Arguments.optionalLabel(session.chatId(), "chat id"),
                Arguments.optionalLabel(session.chatType(), "chat type"),
                Arguments.optionalLabel(session.threadId(), "thread id"),
                Arguments.optionalText(session.cwd(), "cwd"));
    }

    /** Python's {@code json.dumps} text of a value; one that is not a plain value by way of its JSON. */
    private static String pythonJson(@Nullable Object value, String json) {
        try {
            return PythonJson.dumps(value);
        } catch (InvalidArgumentException notPlain) {
            return PythonJson.dumps(PythonJson.parse(json));
        }
    }

    /**
     * True when the row gives a value that schema 17's upsert would fill into an existing row's NULL;
     * without one, the upsert could change nothing.
     */
    boolean fillsMetadata() {
        return model != null || modelConfigPython != null || systemPrompt != null || parentId != null || usesV17Columns();
    }

    /** True when a column only schema 17 has is given. */
    boolean usesV17Columns() {
        return sessionKey != null || chatId != null || chatType != null || threadId != null || cwd != null;
    }
}
