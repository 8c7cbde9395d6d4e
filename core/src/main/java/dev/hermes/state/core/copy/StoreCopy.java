package dev.hermes.state.core.copy;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.CopyProgress;
import dev.hermes.state.core.model.CopyReport;
import dev.hermes.state.core.model.UnstorableValueException;
import dev.hermes.state.db.tables.Sessions;
import dev.hermes.state.migrations.Migrator;
import org.jooq.CommonTableExpression;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SCHEMA_VERSION;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Copies every session and message of one store into another, whatever the engines on either side,
 * keeping session and message ids. In one read transaction of the source (one snapshot throughout):
 *
 * <ol>
 *   <li><b>Check</b>: every row of the source is read once; a value the target could not store
 *       unchanged, a parent or session that does not exist, a parent cycle: a typed error before
 *       anything is written.</li>
 *   <li><b>Copy</b>: sessions in pages of {@link CopyOptions#batchSessions()} by id; each page is one
 *       write transaction of the target holding whole sessions with all their messages (a parent the
 *       target does not have yet is copied first, with its own messages). After the transaction's
 *       inserts the target's message-id generator is moved past the ids it wrote. A process killed at
 *       any moment leaves the target with whole sessions only, counters matching rows; running the
 *       copy again with append skips them and copies the rest.</li>
 *   <li><b>Finish</b>: the target's message-id generator is moved past the source's high-water mark
 *       (SQLite's sqlite_sequence: ids of deleted messages are never handed out again).</li>
 *   <li><b>Verify</b>: every source session and the target's session with the same id are read
 *       again and compared by {@link SessionDigest}; counts and checksums of both sides are reported.</li>
 * </ol>
 */
public final class StoreCopy {
    private static final int EXAMPLES = 5;

    private final Database source;
    private final Database target;
    private final CopyOptions options;
    private final Consumer<CopyProgress> listener;
    /** Source rows, checked for what the target can hold. */
    private final RowReader sourceRows;
    /** Target rows, read back for the verification. */
    private final RowReader targetRows;

    private long sessionsTotal;
    private long messagesTotal;
    private long sessionsSeen;
    private long sessionsCopied;
    private long messagesCopied;
    private long sessionsPresent;
    private long sessionsPulledForward;
    private long sessionsRenumbered;
    private long messagesRenumbered;

    private StoreCopy(Database source, Database target, CopyOptions options, Consumer<CopyProgress> listener) {
        this.source = source;
        this.target = target;
        this.options = options;
        this.listener = listener;
        String targetName = target.backend().dialect().getName();
        StoreSchema sourceSchema = source.schema();
        StoreSchema targetSchema = target.schema();
        RowQueries rows = new RowQueries(CopiedTable.sessions(sourceSchema, targetSchema),
                CopiedTable.messages(sourceSchema, targetSchema));
        this.sourceRows = new RowReader(rows, target.backend().storesNulInText(), true, targetName);
        this.targetRows = new RowReader(rows, true, false, targetName);
    }

    /** Copies {@code source} into {@code target} (see the class comment); returns what it did and found. */
    public static CopyReport run(Database source, Database target, CopyOptions options, Consumer<CopyProgress> listener) {
        return new StoreCopy(source, target, options, listener).run();
    }

    private CopyReport run() {
        checkTarget();
        return source.readStreaming("copying the store", from -> {
            check(from);
            long sourceHighWater = source.backend().messageIdHighWater(from);
            copy(from);
            target.write("moving the message ids past the source's", to -> {
                target.backend().raiseMessageIdHighWater(to, sourceHighWater);
                return sourceHighWater;
            });
            return verify(from, sourceHighWater);
        });
    }

    // ------------------------------------------------------------------ before anything is written

    private void checkTarget() {
        if (source == target || sameFile(source.file(), target.file())) {
            throw new InvalidArgumentException("The source and the target of a copy are the same store");
        }
        if (target.isReadOnly()) {
            throw new InvalidArgumentException("The target of a copy was opened read-only");
        }
        if (!options.append()) {
            long[] counts = target.read("checking that the target is empty", to -> counts(to.dsl()));
            if (counts[0] > 0 || counts[1] > 0) {
                throw new InvalidArgumentException("The target already holds " + counts[0] + " sessions and " + counts[1]
                        + " messages: copy into an empty store, or add to this one (and resume an interrupted copy) with"
                        + " append (--append)");
            }
        }
    }

    private static boolean sameFile(Optional<Path> a, Optional<Path> b) {
        try {
            // a look at the two names (stat), no file is opened
            return a.isPresent() && b.isPresent() && Files.exists(a.get()) && Files.exists(b.get())
                    && Files.isSameFile(a.get(), b.get());
        } catch (IOException unreadable) {
            return false;
        }
    }

    private static long[] counts(DSLContext dsl) {
        return new long[]{dsl.fetchCount(SESSIONS), dsl.fetchCount(MESSAGES)};
    }

    /** Reads every row of the source once: counts, and a typed error for anything the copy could not carry. */
    private void check(Transaction from) throws SQLException {
        checkSourceVersion(from.dsl());
        checkColumns(from);
        long[] counts = counts(from.dsl());
        sessionsTotal = counts[0];
        messagesTotal = counts[1];
        long[] done = new long[2];
        String after = null;
        while (true) {
            List<@Nullable Object[]> page = sourceRows.sessions(from, after, CopyQueries.IN_LIST);
            if (page.isEmpty()) {
                break;
            }
            done[0] += page.size();
            after = (String) page.get(page.size() - 1)[RowReader.SESSION_ID];
            report(CopyProgress.Phase.CHECKING, done[0], done[1]);
        }
        sourceRows.allMessages(from, page -> {
            done[1] += page.size();
            report(CopyProgress.Phase.CHECKING, done[0], done[1]);
        });
        checkReferences(from.dsl());
    }

    /**
     * A source from a newer Hermes (readable read-only with the version-6 columns) may hold what this
     * version does not know: a copy would drop it and still verify, so it is refused.
     */
    private static void checkSourceVersion(DSLContext dsl) {
        Long version = dsl.select(DSL.max(SCHEMA_VERSION.VERSION)).from(SCHEMA_VERSION).fetchOne(0, Long.class);
        if (version != null && version > Migrator.LATEST_VERSION) {
            throw new InvalidArgumentException("The source is at schema version " + version + ", newer than version "
                    + Migrator.LATEST_VERSION + ", the newest this hermes-state knows: a copy would leave out what the"
                    + " newer version stores. Upgrade hermes-state to copy it");
        }
    }

    /**
     * The target has every column of the source, and the source no column this version does not know
     * that holds a value: otherwise the copy would leave something out and still verify.
     */
    private void checkColumns(Transaction from) {
        StoreSchema sourceSchema = from.schema();
        StoreSchema targetSchema = target.schema();
        List<String> lacking = new ArrayList<>();
        for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
            List<Field<?>> targets = targetSchema.fields(table);
            sourceSchema.fields(table).stream().filter(field -> !targets.contains(field))
                    .forEach(field -> lacking.add(table.getName() + "." + field.getName()));
        }
        if (!lacking.isEmpty()) {
            throw new InvalidArgumentException("The target is at schema version " + targetSchema.version()
                    + " and lacks columns the source has (" + String.join(", ", lacking) + "): a copy would leave them"
                    + " out. Open the target at version " + Migrator.LATEST_VERSION + " to copy into it");
        }
        List<String> unknown = new ArrayList<>();
        for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
            java.util.Set<String> known = new java.util.HashSet<>();
            for (Field<?> field : table.fields()) {
                known.add(field.getName());
            }
            java.util.Set<String> present = table == SESSIONS ? sourceSchema.sessionColumns() : sourceSchema.messageColumns();
            for (String column : present) {
                if (!known.contains(column) && from.dsl().fetchExists(DSL.selectOne().from(table)
                        .where(DSL.field(DSL.name(column)).isNotNull()))) {
                    unknown.add(table.getName() + "." + column);
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidArgumentException("The source holds values in columns this hermes-state does not know ("
                    + String.join(", ", unknown) + "): a copy would leave them out");
        }
    }

    /** Every parent and every message's session exists, and no parent chain is a cycle: what a target's keys demand. */
    private static void checkReferences(DSLContext dsl) {
        Sessions parent = SESSIONS.as("parent");
        Record2<String, String> dangling = dsl.select(SESSIONS.ID, SESSIONS.PARENT_SESSION_ID).from(SESSIONS)
                .where(SESSIONS.PARENT_SESSION_ID.isNotNull())
                .andNotExists(DSL.selectOne().from(parent).where(parent.ID.eq(SESSIONS.PARENT_SESSION_ID)))
                .limit(1).fetchOne();
        if (dangling != null) {
            throw new UnstorableValueException(dangling.value1(), null, SESSIONS.PARENT_SESSION_ID.getName(),
                    "names the parent session '" + dangling.value2() + "', which is not in the source (the target"
                            + " refuses a parent that does not exist)");
        }
        Record2<Long, String> orphan = dsl.select(MESSAGES.ID, MESSAGES.SESSION_ID).from(MESSAGES)
                .whereNotExists(DSL.selectOne().from(SESSIONS).where(SESSIONS.ID.eq(MESSAGES.SESSION_ID)))
                .limit(1).fetchOne();
        if (orphan != null) {
            throw new UnstorableValueException(orphan.value2(), orphan.value1(), MESSAGES.SESSION_ID.getName(),
                    "names a session that is not in the source (the target refuses a message without its session)");
        }
        // Every session reached from a root (a session without parent) is on no cycle; the others are.
        Sessions child = SESSIONS.as("child");
        Field<String> reachedId = DSL.field(DSL.name("reached", "id"), String.class);
        CommonTableExpression<Record1<String>> reached = DSL.name("reached").fields("id")
                .as(DSL.select(SESSIONS.ID).from(SESSIONS).where(SESSIONS.PARENT_SESSION_ID.isNull())
                        .unionAll(DSL.select(child.ID).from(DSL.table(DSL.name("reached")))
                                .join(child).on(child.PARENT_SESSION_ID.eq(reachedId))));
        Record1<String> onCycle = dsl.withRecursive(reached)
                .select(SESSIONS.ID).from(SESSIONS)
                .whereNotExists(DSL.selectOne().from(reached).where(reachedId.eq(SESSIONS.ID)))
                .limit(1).fetchOne();
        if (onCycle != null) {
            throw new UnstorableValueException(onCycle.value1(), null, SESSIONS.PARENT_SESSION_ID.getName(),
                    "leads into a cycle of parents (a session is its own ancestor), which no store can hold");
        }
    }

    // ------------------------------------------------------------------ copying

    private void copy(Transaction from) throws SQLException {
        String after = null;
        while (true) {
            List<@Nullable Object[]> page = sourceRows.sessions(from, after, options.batchSessions());
            if (page.isEmpty()) {
                return;
            }
            String first = (String) page.get(0)[RowReader.SESSION_ID];
            after = (String) page.get(page.size() - 1)[RowReader.SESSION_ID];
            SessionBatch batch = target.write("copying sessions " + first + " to " + after,
                    to -> SessionBatch.write(from, to, page, sourceRows, target.backend(), options.append()));
            sessionsSeen += page.size();
            sessionsCopied += batch.sessionsCopied();
            messagesCopied += batch.messagesCopied();
            sessionsPresent += batch.sessionsPresent();
            sessionsPulledForward += batch.sessionsPulledForward();
            sessionsRenumbered += batch.sessionsRenumbered();
            messagesRenumbered += batch.messagesRenumbered();
            report(CopyProgress.Phase.COPYING, sessionsSeen, messagesCopied);
        }
    }

    // ------------------------------------------------------------------ verifying

    private CopyReport verify(Transaction from, long sourceHighWater) {
        return target.readStreaming("verifying the copy", to -> {
            Totals sourceSide = new Totals();
            Totals targetSide = new Totals();
            long differing = 0;
            List<String> examples = new ArrayList<>();
            String after = null;
            while (true) {
                List<@Nullable Object[]> page = sourceRows.sessions(from, after, CopyQueries.IN_LIST);
                if (page.isEmpty()) {
                    break;
                }
                after = (String) page.get(page.size() - 1)[RowReader.SESSION_ID];
                Map<String, @Nullable Object[]> copies = new HashMap<>();
                for (Object[] inList : CopyQueries.inLists(page.stream().map(row -> row[RowReader.SESSION_ID]).toList())) {
                    for (@Nullable Object[] row : targetRows.sessionsIn(to, inList)) {
                        copies.put((String) row[RowReader.SESSION_ID], row);
                    }
                }
                for (@Nullable Object[] session : page) {
                    String id = (String) session[RowReader.SESSION_ID];
                    BigInteger original = sourceSide.add(digest(from, sourceRows, session));
                    @Nullable Object[] copy = copies.get(id);
                    BigInteger copied = copy == null ? null : targetSide.add(digest(to, targetRows, copy));
                    if (!original.equals(copied)) {
                        differing++;
                        if (examples.size() < EXAMPLES) {
                            examples.add(id);
                        }
                    }
                }
                report(CopyProgress.Phase.VERIFYING, sourceSide.sessions, sourceSide.messages);
            }
            long[] targetCounts = counts(to.dsl());
            return new CopyReport(sourceSide.side(), targetSide.side(), targetCounts[0], targetCounts[1], sessionsCopied,
                    messagesCopied, sessionsPresent - sessionsPulledForward, sessionsRenumbered, messagesRenumbered,
                    differing, examples, sourceHighWater, target.backend().messageIdHighWater(to));
        });
    }

    private static SessionDigest digest(Transaction transaction, RowReader rows, @Nullable Object[] session)
            throws SQLException {
        SessionDigest digest = new SessionDigest(rows.queries(), session);
        rows.messagesOf(transaction, (String) session[RowReader.SESSION_ID], page -> page.forEach(digest::addMessage));
        return digest;
    }

    /** One side's counts and checksum in the verification. */
    private static final class Totals {
        private long sessions;
        private long messages;
        private BigInteger sum = BigInteger.ZERO;

        BigInteger add(SessionDigest digest) {
            BigInteger value = digest.value();
            sessions++;
            messages += digest.messages();
            sum = SessionDigest.add(sum, value);
            return value;
        }

        CopyReport.Side side() {
            return new CopyReport.Side(sessions, messages, SessionDigest.hex(sum));
        }
    }

    private void report(CopyProgress.Phase phase, long sessionsDone, long messagesDone) {
        listener.accept(new CopyProgress(phase, sessionsDone, sessionsTotal, messagesDone, messagesTotal));
    }
}
