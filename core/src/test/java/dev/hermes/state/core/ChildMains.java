package dev.hermes.state.core;

import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Entry points the tests start in separate JVMs. */
final class ChildMains {
    private ChildMains() {
    }

    /** Prints {@link StateRepository#defaultPath()} (the test sets HERMES_HOME for this process). */
    static final class PrintDefaultPath {
        public static void main(String[] args) {
            System.out.print(StateRepository.defaultPath());
        }
    }

    /** Exercises the store on a file and prints nothing itself: any output came from a library. */
    static final class SilentWork {
        public static void main(String[] args) {
            try (StateRepository store = StateRepository.open(Path.of(args[0]))) {
                store.createSession("quiet", "cli");
                store.appendMessage("quiet", NewMessage.builder("assistant").content("hello")
                        .toolCalls(List.of(Map.of("id", "c1"))).build());
                store.appendMessages("quiet", List.of(NewMessage.of("user", "a"), NewMessage.of("user", "b")));
                store.listSessionsRich(ListSessionsQuery.defaults());
                store.getMessagesAsConversation("quiet");
                store.compressionTip("quiet");
                store.dsl().fetchCount(dev.hermes.state.db.Tables.SESSIONS);
                try {
                    store.appendMessage("missing", NewMessage.of("user", "x"));
                } catch (dev.hermes.state.ConstraintViolationException expected) {
                    // a typed failure must not print anything either
                }
            }
            try (StateRepository readOnly = StateRepository.openReadOnly(Path.of(args[0]))) {
                readOnly.getMessages("quiet");
            }
        }
    }
}
