package dev.hermes.state.core.sessions;

import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.rows.JsonColumns;
import org.jspecify.annotations.Nullable;

/** A new session's columns, checked and encoded before the write transaction starts. */
public record NewSessionRow(String id, String source, @Nullable String userId, @Nullable String model,
                            @Nullable String modelConfig, @Nullable String systemPrompt, @Nullable String parentId) {

    public static NewSessionRow of(@Nullable NewSession given) {
        NewSession session = Arguments.required(given, "session");
        String id = Arguments.id(session.id(), "session id");
        String source = Arguments.label(session.source(), "source");
        String model = Arguments.optionalLabel(session.model(), "model");
        String modelConfig = Arguments.optionalText(JsonColumns.encode(session.modelConfig(), "model_config"), "model_config");
        String systemPrompt = Arguments.optionalText(session.systemPrompt(), "system prompt");
        String userId = Arguments.optionalLabel(session.userId(), "user id");
        String parentId = Arguments.optionalId(session.parentSessionId(), "parent session id");
        return new NewSessionRow(id, source, userId, model, modelConfig, systemPrompt, parentId);
    }
}
