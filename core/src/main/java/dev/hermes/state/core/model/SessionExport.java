package dev.hermes.state.core.model;

import java.util.List;

/** One exported session: every column plus its messages as {@code get_messages} returns them. */
public record SessionExport(Session session, List<Message> messages) {
    public SessionExport {
        messages = List.copyOf(messages);
    }
}
