package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.SessionSelection;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The selection flags {@code sessions list}, {@code prune}, {@code archive} and {@code export} share
 * (a picocli mixin), turned into core's {@link SessionSelection}. Ages are a number of days (the
 * agent's {@code --older-than 90}; fractions allowed) or a number with a unit: {@code 90m}, {@code 12h},
 * {@code 30d}, {@code 2w}. Dates are ISO ({@code 2026-11-01} is its midnight UTC;
 * {@code 2026-11-01T10:00:00Z} or with an offset) or epoch seconds.
 */
public final class SelectionOptions {
    private static final Pattern AGE = Pattern.compile("(\\d+(?:\\.\\d+)?)([mhdw]?)");
    private static final Pattern EPOCH = Pattern.compile("\\d+(?:\\.\\d+)?");

    @Option(names = "--older-than", paramLabel = "AGE", description = "Last activity more than AGE ago: days (90), or 90m, 12h, 30d, 2w.")
    @Nullable String olderThan;
    @Option(names = "--newer-than", paramLabel = "AGE", description = "Last activity at most AGE ago.")
    @Nullable String newerThan;
    @Option(names = "--before", paramLabel = "DATE", description = "Started before DATE (2026-11-01, an ISO instant, or epoch seconds).")
    @Nullable String before;
    @Option(names = "--after", paramLabel = "DATE", description = "Started at or after DATE.")
    @Nullable String after;
    @Option(names = "--source", paramLabel = "S", description = "Only sessions of this source (cli, telegram, ...).")
    @Nullable String source;
    @Option(names = "--title", paramLabel = "TEXT", description = "Title contains TEXT (ASCII letters in any case).")
    @Nullable String title;
    @Option(names = "--model", paramLabel = "M", description = "This model exactly.")
    @Nullable String model;
    @Option(names = "--provider", paramLabel = "P", description = "This billing provider exactly.")
    @Nullable String provider;
    @Option(names = "--cwd", paramLabel = "DIR", description = "Working directory DIR or below it.")
    @Nullable String cwd;
    @Option(names = "--branch", paramLabel = "B", description = "This git branch exactly.")
    @Nullable String branch;
    @Option(names = "--end-reason", paramLabel = "R", description = "Ended with this reason (compression, cli_close, ...).")
    @Nullable String endReason;
    @Option(names = "--min-messages", paramLabel = "N") @Nullable Long minMessages;
    @Option(names = "--max-messages", paramLabel = "N") @Nullable Long maxMessages;
    @Option(names = "--min-tokens", paramLabel = "N", description = "Input plus output tokens at least N.") @Nullable Long minTokens;
    @Option(names = "--max-tokens", paramLabel = "N") @Nullable Long maxTokens;
    @Option(names = "--min-cost", paramLabel = "USD", description = "Cost (actual, else estimated) at least USD.") @Nullable Double minCost;
    @Option(names = "--max-cost", paramLabel = "USD") @Nullable Double maxCost;
    @Option(names = "--min-tool-calls", paramLabel = "N") @Nullable Long minToolCalls;
    @Option(names = "--max-tool-calls", paramLabel = "N") @Nullable Long maxToolCalls;
    @Option(names = "--include-archived", description = "Archived sessions too (left out otherwise).")
    boolean includeArchived;

    /** The selection the flags give; {@code withSource} false leaves {@code --source} to the caller. */
    SessionSelection selection(boolean withSource) {
        return SessionSelection.builder()
                .olderThan(age(olderThan, "--older-than"))
                .newerThan(age(newerThan, "--newer-than"))
                .startedBefore(date(before, "--before"))
                .startedAfter(date(after, "--after"))
                .source(withSource ? source : null)
                .titleContains(title).model(model).provider(provider).cwd(cwd).gitBranch(branch).endReason(endReason)
                .minMessages(minMessages).maxMessages(maxMessages)
                .minTokens(minTokens).maxTokens(maxTokens)
                .minCost(minCost).maxCost(maxCost)
                .minToolCalls(minToolCalls).maxToolCalls(maxToolCalls)
                .includeArchived(includeArchived)
                .build();
    }

    /** True when a flag other than {@code --source} is given. */
    boolean beyondSource() {
        return selection(false).hasFilter() || includeArchived;
    }

    /** The given flags, for a JSON answer. */
    Map<String, Object> given() {
        Map<String, Object> flags = new LinkedHashMap<>();
        put(flags, "older_than", olderThan);
        put(flags, "newer_than", newerThan);
        put(flags, "before", before);
        put(flags, "after", after);
        put(flags, "source", source);
        put(flags, "title", title);
        put(flags, "model", model);
        put(flags, "provider", provider);
        put(flags, "cwd", cwd);
        put(flags, "branch", branch);
        put(flags, "end_reason", endReason);
        put(flags, "min_messages", minMessages);
        put(flags, "max_messages", maxMessages);
        put(flags, "min_tokens", minTokens);
        put(flags, "max_tokens", maxTokens);
        put(flags, "min_cost", minCost);
        put(flags, "max_cost", maxCost);
        put(flags, "min_tool_calls", minToolCalls);
        put(flags, "max_tool_calls", maxToolCalls);
        if (includeArchived) {
            flags.put("include_archived", true);
        }
        return flags;
    }

    private static void put(Map<String, Object> flags, String key, @Nullable Object value) {
        if (value != null) {
            flags.put(key, value);
        }
    }

    /** {@code N} days, or {@code N} with m, h, d or w; 0 is allowed (every last activity is in the past). */
    static @Nullable Duration age(@Nullable String text, String flag) {
        if (text == null) {
            return null;
        }
        Matcher matcher = AGE.matcher(text.trim());
        if (!matcher.matches()) {
            throw new InvalidArgumentException(flag + " " + text + ": give days (90) or a number with a unit: 90m, 12h, 30d, 2w");
        }
        long perUnit = switch (matcher.group(2)) {
            case "m" -> 60L;
            case "h" -> 3_600L;
            case "w" -> 604_800L;
            default -> 86_400L;
        };
        BigDecimal seconds = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(perUnit));
        if (seconds.compareTo(BigDecimal.valueOf(100L * 365 * 86_400)) > 0) {
            throw new InvalidArgumentException(flag + " " + text + " is more than 100 years");
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    /** An ISO date (midnight UTC), an ISO date-time with offset or Z, or epoch seconds. */
    static @Nullable Instant date(@Nullable String text, String flag) {
        if (text == null) {
            return null;
        }
        String value = text.trim();
        try {
            if (EPOCH.matcher(value).matches()) {
                BigDecimal seconds = new BigDecimal(value);
                return Instant.ofEpochSecond(seconds.longValue(),
                        seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
            }
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new InvalidArgumentException(flag + " " + text + ": give a date (2026-11-01), an ISO instant"
                    + " (2026-11-01T10:00:00Z) or epoch seconds");
        }
    }
}
