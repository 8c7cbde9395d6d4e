package dev.hermes.state.core;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in text before it leaves the store (an export to share, a page to show): API keys and
 * tokens of the common providers, bearer headers, PEM private keys, passwords in URLs and
 * {@code api_key=...}-style assignments. Every pattern is anchored on the shape of a real credential
 * (its prefix, a minimum length, word boundaries), so that prose ("risk-free"), git hashes, UUIDs,
 * e-mail addresses, URLs without a password and base64 picture data stay as they are: an export that
 * mangles ordinary content would not be trusted, and one that misses a key would leak it.
 *
 * <p>A masked value keeps its kind and at most its first characters, so a reader can still tell which
 * key was used: {@code sk-proj-ab…[REDACTED]}. Stateless and thread-safe.
 */
public final class Redactor {
    /** What replaces a secret (after the visible prefix of its kind). */
    public static final String MASK = "[REDACTED]";

    /** A token character: what keys are made of (letters, digits, {@code -} and {@code _}). */
    private static final String T = "[A-Za-z0-9_-]";
    /**
     * Not preceded by a token character (nor {@code +} or {@code /}, which base64 data is made of): a
     * key starts a word, "risk-" is not "sk-", and a run inside a picture's base64 is no key.
     */
    private static final String START = "(?<![A-Za-z0-9_+/-])";
    /** Not followed by one: the whole token is taken, or (too short) none of it. */
    private static final String END = "(?![A-Za-z0-9_+/-])";

    private record Rule(Pattern pattern, int keepGroup) {
    }

    /**
     * The rules, most specific first (an Anthropic key is also an {@code sk-} key). Group 1 is what stays
     * visible: the kind's prefix, the header name, the URL up to the password.
     */
    private static final List<Rule> RULES = List.of(
            // PEM private keys, whole block, whatever the kind (RSA, EC, OPENSSH, ENCRYPTED...)
            rule("(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----)[\\s\\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
            rule(START + "(sk-ant-)(?:api|admin|oat)?[0-9]{0,2}-?" + T + "{20,}" + END),
            rule(START + "(sk-(?:proj|svcacct|admin)-)" + T + "{20,}" + END),
            rule(START + "(sk-)[A-Za-z0-9]{20,}" + END),
            rule(START + "((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{16,}" + END),
            rule(START + "(AIza)[0-9A-Za-z_-]{35}" + END),
            rule(START + "(gh[pousr]_)[A-Za-z0-9]{30,}" + END),
            rule(START + "(github_pat_)[A-Za-z0-9_]{40,}" + END),
            rule(START + "(xox[abposr]-)[A-Za-z0-9-]{10,}" + END),
            rule(START + "(hf_)[A-Za-z0-9]{30,}" + END),
            rule(START + "(AKIA|ASIA)[A-Z0-9]{16}" + END),
            // JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ" = '{"')
            rule(START + "(eyJ)[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}" + END),
            // Authorization: Bearer / Basic / Token <credential>, in a header line or a JSON value
            rule("(?i)(authorization[\"']?\\s*[:=]\\s*[\"']?(?:bearer|basic|token)\\s+)[A-Za-z0-9._~+/=-]{8,}"),
            rule("(?i)(?<![A-Za-z])(bearer\\s+)[A-Za-z0-9._~+/-]{20,}=*"),
            // scheme://user:password@host: the password only
            rule("(?i)([a-z][a-z0-9+.-]*://[^\\s:/@\"'<>]+:)[^\\s@/\"'<>]+(?=@)"),
            // aws_secret_access_key = ..., api_key: "...", "token": "...", password=...
            rule("(?i)(?<![A-Za-z])((?:aws_secret_access_key|secret_access_key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token"
                    + "|refresh[_-]?token|client[_-]?secret|secret[_-]?key|private[_-]?key|password|passwd|token|secret)"
                    + "[\"']?\\s*[:=]\\s*[\"']?)(?=[^\\s\"']*[0-9])(?=[^\\s\"']*[A-Za-z])[^\\s\"',;}{<>]{12,}"));

    private static Rule rule(String regex) {
        return new Rule(Pattern.compile(regex), 1);
    }

    private Redactor() {
    }

    /** {@code text} with every secret masked; the same string when there is none. */
    public static String redact(String text) {
        String result = text;
        for (Rule rule : RULES) {
            Matcher matcher = rule.pattern().matcher(result);
            if (!matcher.find()) {
                continue;
            }
            StringBuilder masked = new StringBuilder(result.length());
            do {
                matcher.appendReplacement(masked, Matcher.quoteReplacement(matcher.group(rule.keepGroup()) + MASK));
            } while (matcher.find());
            matcher.appendTail(masked);
            result = masked.toString();
        }
        return result;
    }

    /** True when {@link #redact} would change {@code text}. */
    public static boolean hasSecret(String text) {
        for (Rule rule : RULES) {
            if (rule.pattern().matcher(text).find()) {
                return true;
            }
        }
        return false;
    }
}
