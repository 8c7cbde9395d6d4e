package dev.hermes.state.core.model;

import java.util.List;

/**
 * What a copy did and what its verification found. The verification reads, after the last batch, every
 * session of the source (in the snapshot the copy read) and the target's session with the same id,
 * and compares them with a content digest (see {@link Side#checksum()}).
 *
 * @param source             the source: all of its sessions and messages
 * @param target             the target's sessions that have the ids of the source's, and their messages
 * @param targetSessions     every session in the target after the copy (more than {@code target.sessions()}
 *                           when the target held others before an append)
 * @param targetMessages     every message in the target after the copy
 * @param sessionsCopied     sessions this copy wrote
 * @param messagesCopied     messages this copy wrote
 * @param sessionsSkipped    source sessions not written because the target already had their id (append / resume)
 * @param sessionsRenumbered copied sessions whose messages got new ids (append: an id was taken in the target)
 * @param messagesRenumbered the messages of those sessions
 * @param sessionsDiffering  source sessions whose counterpart in the target differs or is missing
 * @param differingExamples  the first few of those ids
 * @param sourceMessageIdHighWater the largest message id the source ever handed out (SQLite: sqlite_sequence)
 * @param targetMessageIdHighWater the same for the target after the copy: new messages get larger ids
 */
public record CopyReport(Side source, Side target, long targetSessions, long targetMessages, long sessionsCopied,
                         long messagesCopied, long sessionsSkipped, long sessionsRenumbered, long messagesRenumbered,
                         long sessionsDiffering, List<String> differingExamples, long sourceMessageIdHighWater,
                         long targetMessageIdHighWater) {

    public CopyReport {
        differingExamples = List.copyOf(differingExamples);
    }

    /**
     * One side of the comparison.
     *
     * @param sessions the sessions counted
     * @param messages their messages
     * @param checksum the content checksum, 64 hex digits: the sum modulo 2^256 of one SHA-256 per session
     *                 over every column of the session and, in (timestamp, id) order, every column of each
     *                 of its messages except the message's own id (so a session whose messages were
     *                 renumbered by an append still compares equal); order-independent, so each side
     *                 can be read in its own order
     */
    public record Side(long sessions, long messages, String checksum) {
    }

    /** True when every source session is in the target, identical: same counts, same checksum. */
    public boolean verified() {
        return sessionsDiffering == 0 && source.equals(target);
    }
}
