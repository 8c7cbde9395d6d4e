package dev.hermes.state.core;

import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RecentUserMessage;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's own files at schema 17 ({@code state-v17.db}, and {@code state-v17-upgraded.db}: state-v6.db
 * upgraded, rewound and compacted by the agent), read through a read-only store and through a read-write
 * one at 17, each on a copy. Expected values: MANIFEST-v7-v17.md's answers, and the agent's (7e8f50a)
 * own answers on copies of the same files for the reads the manifest does not list.
 */
class FixtureMessagesV17Test {
    static final String MULTIMODAL = "20260402_130000_e4c21b";
    static final String COMPACTED = "20260402_110000_e4c1f9";
    static final String EXPLICIT_TIMES = "20260402_140000_e4c22c";
    static final String REWOUND = "20260401_091500_e4c1b2";
    static final String RESTORED = "20260401_094500_e4c1b3";
    static final String GROUP = "20260402_120000_e4c20a";
    static final String ENCKE = "20260401_083000_e4c1a0";

    @TempDir
    Path dir;

    private StateRepository open(String fixture, boolean readOnly) {
        Path copy = Fixtures.copy(fixture, dir);
        return readOnly ? StateRepository.openReadOnly(copy)
                : StateRepository.builder().path(copy).schemaVersion(17).build();
    }

    private static List<Long> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }

    @ParameterizedTest(name = "read-only {0}")
    @ValueSource(booleans = {true, false})
    void stateV17GetMessagesAsTheManifestSays(boolean readOnly) {
        try (StateRepository store = open("state-v17.db", readOnly)) {
            List<Message> multimodal = store.getMessages(MULTIMODAL);
            assertEquals(List.of(135L, 136L, 137L, 138L), ids(multimodal));
            assertEquals(List.of(135L, 137L), multimodal.stream()
                    .filter(m -> m.content() instanceof MessageContent.Structured s && s.value() instanceof List<?>)
                    .map(Message::id).toList());
            assertEquals(List.of(Map.of("type", "text", "text", "And this one, taken the same night?"),
                            Map.of("type", "image_url", "image_url", Map.of("url", "https://cdn.example.invalid/astro/m42.jpg",
                                    "detail", "low"))),
                    multimodal.get(2).content().value());
            assertEquals("1250000000000000002", multimodal.get(2).platformMessageId());
            assertEquals(List.of(130L, 131L), ids(store.getMessages(COMPACTED)));
            List<Message> timed = store.getMessages(EXPLICIT_TIMES);
            assertEquals(List.of(139L, 140L, 141L, 142L), ids(timed));
            assertTrue(timed.get(1).timestamp().isAfter(timed.get(2).timestamp()), "the tool row is stamped before its call");
            assertEquals(List.of(104L, 105L, 108L, 109L), ids(store.getMessages(REWOUND)));
            List<Message> all = store.getMessages(REWOUND, true);
            assertEquals(List.of(104L, 105L, 106L, 107L, 108L, 109L), ids(all));
            assertEquals(List.of(106L, 107L), all.stream().filter(m -> !m.active()).map(Message::id).toList());
            assertEquals(List.of(126L, 127L, 128L, 129L), store.getMessages(COMPACTED, true).stream()
                    .filter(Message::compacted).map(Message::id).toList());
            assertEquals(140, store.messageCount(null));
            assertEquals(6, store.messageCount(REWOUND));
        }
    }

    @ParameterizedTest(name = "read-only {0}")
    @ValueSource(booleans = {true, false})
    void stateV17ConversationsAndQuestionsAsTheAgentAnswers(boolean readOnly) {
        try (StateRepository store = open("state-v17.db", readOnly)) {
            List<Map<String, Object>> group = store.getMessagesAsConversation(GROUP).stream().map(ChatMessage::toMap).toList();
            assertEquals(List.of(List.of("role", "content", "timestamp", "message_id", "observed"),
                            List.of("role", "content", "timestamp", "message_id"),
                            List.of("role", "content", "timestamp", "finish_reason")),
                    group.stream().map(turn -> List.copyOf(turn.keySet())).toList());
            assertEquals("[carol] the new spectrometer finally arrived", group.get(0).get("content"));
            assertEquals("4101", group.get(0).get("message_id"));

            Map<String, Object> answer = store.getMessagesAsConversation(ENCKE).get(3).toMap();
            assertEquals(List.of("role", "content", "timestamp", "finish_reason", "reasoning_content", "codex_message_items"),
                    List.copyOf(answer.keySet()));
            assertEquals("", answer.get("reasoning_content"));
            assertEquals(List.of(Map.of("type", "message", "role", "assistant", "id", "msg_encke_01", "status", "completed",
                    "content", List.of(Map.of("type", "output_text", "text", "Comet Encke's next perihelion is on 2027-02-09.")))),
                    answer.get("codex_message_items"));
            Map<String, Object> call = store.getMessagesAsConversation(ENCKE).get(1).toMap();
            assertEquals("Encke has a 3.3-year period; ask the ephemeris service for the next perihelion.",
                    call.get("reasoning_content"));

            assertEquals(List.of(
                            new RecentUserMessage(108, store.getMessages(REWOUND, true).get(4).timestamp(),
                                    "Actually, just summarise the albedo comparison in one line."),
                            new RecentUserMessage(106, store.getMessages(REWOUND, true).get(2).timestamp(),
                                    "Also draft a note on magnetar flares and redraw the 星图 overlay."),
                            new RecentUserMessage(104, store.getMessages(REWOUND, true).get(0).timestamp(),
                                    "Compare the geometric albedo of Enceladus and Europa.")),
                    store.listRecentUserMessages(REWOUND, 20, true));
            assertTrue(store.hasArchivedMessages(REWOUND));
            assertFalse(store.hasArchivedMessages(RESTORED));
            assertTrue(store.hasArchivedMessages(COMPACTED));
            assertTrue(store.hasPlatformMessageId(GROUP, "4101"));
            assertFalse(store.hasPlatformMessageId(GROUP, "4103"));
            assertEquals(List.of(105L, 106L, 107L), ids(store.getMessagesAround(REWOUND, 106, 1).window()));
        }
    }

    @ParameterizedTest(name = "read-only {0}")
    @ValueSource(booleans = {true, false})
    void theAgentsUpgradeOfStateV6(boolean readOnly) {
        try (StateRepository store = open("state-v17-upgraded.db", readOnly)) {
            assertEquals(List.of(14L), ids(store.getMessages("20260311_080000_2133b2")));
            List<Message> all = store.getMessages("20260311_080000_2133b2", true);
            assertEquals(List.of(14L, 15L, 16L, 17L, 18L, 19L), ids(all));
            assertEquals(List.of(15L, 16L, 17L, 18L, 19L), all.stream().filter(m -> !m.active()).map(Message::id).toList());
            assertEquals(List.of(98L, 99L), ids(store.getMessages("20260314_082020_73b220")));
            assertEquals(List.of(12L, 13L), ids(store.getMessages("20260310_135900_0957cb")));
            assertEquals(97, store.messageCount(null));
            assertEquals(List.of("[compacted summary] The user asked for a production rollout; the assistant checked git and the"
                            + " README, then reported 3/3 pods ready.", "Summary noted; the rollout is complete."),
                    store.getMessagesAsConversation("20260314_082020_73b220").stream().map(ChatMessage::text).toList());
            assertEquals(List.of(15L), store.listRecentUserMessages("20260311_080000_2133b2", 20, true).stream()
                    .map(RecentUserMessage::id).toList());
            assertEquals(List.of("system", "user", "assistant", "tool", "tool", "assistant"),
                    store.getMessagesAsConversation("20260311_080000_2133b2", ConversationOptions.DEFAULT.withInactive(true))
                            .stream().map(ChatMessage::role).toList());
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"state-v17.db", "state-v17-upgraded.db"})
    void aReadWriteStoreRewindsAndCompactsTheAgentsFile(String fixture) {
        try (StateRepository store = open(fixture, false)) {
            String session = fixture.equals("state-v17.db") ? RESTORED : "20260311_122852_b6ebb0";
            List<Message> before = store.getMessages(session);
            long firstUser = before.stream().filter(m -> m.role().equals("user")).findFirst().orElseThrow().id();
            assertEquals(before.size() - ids(before).indexOf(firstUser), store.rewindToMessage(session, firstUser).rewoundCount());
            assertTrue(store.hasArchivedMessages(session));
            assertEquals(before.size() - ids(before).indexOf(firstUser), store.restoreRewound(session, firstUser));
            assertEquals(ids(before), ids(store.getMessages(session)));
            assertEquals(1, store.archiveAndCompact(session, List.of(NewMessage.of("user", "summary"))));
            assertEquals(List.of("summary"), store.getMessages(session).stream().map(Message::text).toList());
            assertEquals(before.size() + 1, store.getMessages(session, true).size());
        }
    }
}
