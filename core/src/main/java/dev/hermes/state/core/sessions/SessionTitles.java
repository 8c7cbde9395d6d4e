package dev.hermes.state.core.sessions;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.Rows;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Session titles (docs/behaviour.md#titles): set one (unique among sessions), look sessions up by
 * title, and number titles along a lineage ("base", "base #2", ...). The sanitizing rule itself is
 * public API: {@link dev.hermes.state.core.model.Titles}.
 */
public final class SessionTitles {
    /** get_next_title_in_lineage's pattern: a base title and a trailing " #<digits>" (Unicode digits, as Python's \d). */
    private static final Pattern NUMBERED_TITLE = Pattern.compile("^(.*?) #(\\d+)$", Pattern.UNICODE_CHARACTER_CLASS);

    private final Backend backend;

    public SessionTitles(Backend backend) {
        this.backend = backend;
    }

    /**
     * Sets (or, with null, clears) the title; a title another session has is refused with
     * "Title 'T' is already in use by session ID". At schema 17's rules a title held by a compression
     * ancestor of the session (hidden behind its continuation in listings) moves to the session
     * instead. False for an unknown id.
     */
    public boolean set(Transaction transaction, String sessionId, @Nullable String sanitized) {
        DSLContext dsl = transaction.dsl();
        if (sanitized != null) {
            Optional<String> holder = dsl.select(SESSIONS.ID).from(SESSIONS)
                    .where(SESSIONS.TITLE.eq(sanitized))
                    .and(SESSIONS.ID.ne(sessionId))
                    .limit(DSL.inline(1))
                    .fetchOptional(SESSIONS.ID);
            if (holder.isPresent()) {
                if (!transaction.schema().v17() || !CompressionChains.isAncestor(dsl, holder.get(), sessionId)) {
                    throw new InvalidArgumentException("Title '" + sanitized + "' is already in use by session " + holder.get());
                }
                dsl.update(SESSIONS).setNull(SESSIONS.TITLE).where(SESSIONS.ID.eq(holder.get())).execute();
            }
        }
        return dsl.update(SESSIONS).set(SESSIONS.TITLE, sanitized).where(SESSIONS.ID.eq(sessionId)).execute() > 0;
    }

    /** Empty for an unknown session or one without a title. */
    public Optional<String> get(Transaction transaction, String sessionId) {
        return transaction.dsl().select(SESSIONS.TITLE)
                .from(SESSIONS)
                .where(SESSIONS.ID.eq(sessionId))
                .fetchOptional(SESSIONS.TITLE);
    }

    /** The session titled exactly {@code title}. */
    public Optional<Session> sessionTitled(Transaction transaction, String title) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(SESSIONS.TITLE.eq(title))
                .fetchOptional(Rows::session);
    }

    /**
     * The most recently started session titled {@code "title #<anything>"} (wildcards in the title taken
     * literally), else the session titled exactly {@code title}, else empty.
     */
    public Optional<String> resolve(Transaction transaction, String title) {
        DSLContext dsl = transaction.dsl();
        Optional<String> numbered = dsl.select(SESSIONS.ID).from(SESSIONS)
                .where(backend.startsWith(SESSIONS.TITLE, title + " #"))
                .orderBy(SESSIONS.STARTED_AT.desc())
                .limit(DSL.inline(1))
                .fetchOptional(SESSIONS.ID);
        if (numbered.isPresent()) {
            return numbered;
        }
        return dsl.select(SESSIONS.ID).from(SESSIONS)
                .where(SESSIONS.TITLE.eq(title))
                .limit(DSL.inline(1))
                .fetchOptional(SESSIONS.ID);
    }

    /** The base of a title: the title without a trailing " #&lt;digits&gt;". */
    public static String base(String title) {
        Matcher numbered = NUMBERED_TITLE.matcher(title);
        return numbered.matches() ? numbered.group(1) : title;
    }

    /**
     * get_next_title_in_lineage for a {@link #base}: the base itself when no session is titled base or
     * "base #…", else "base #(max+1)" (an unnumbered base counts as 1).
     */
    public String nextInLineage(Transaction transaction, String base) {
        List<String> existing = transaction.dsl().select(SESSIONS.TITLE)
                .from(SESSIONS)
                .where(SESSIONS.TITLE.eq(base).or(backend.startsWith(SESSIONS.TITLE, base + " #")))
                .fetch(SESSIONS.TITLE);
        if (existing.isEmpty()) {
            return base;
        }
        BigInteger highest = BigInteger.ONE;
        for (String taken : existing) {
            Matcher number = NUMBERED_TITLE.matcher(taken);
            if (number.matches()) {
                highest = highest.max(digits(number.group(2)));
            }
        }
        return base + " #" + highest.add(BigInteger.ONE);
    }

    /** The value of a run of (possibly non-ASCII) decimal digits, as Python's int() reads it. */
    private static BigInteger digits(String digits) {
        StringBuilder ascii = new StringBuilder(digits.length());
        digits.codePoints().forEach(codePoint -> ascii.append(Character.digit(codePoint, 10)));
        return new BigInteger(ascii.toString());
    }
}
