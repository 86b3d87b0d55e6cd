package dev.sextant.acl;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * {@code topics.include} as ACL resource patterns, when the regular expression is a list of topic names and prefixes
 * ({@code orders|payments\..*}: the literal {@code orders} and the prefix {@code payments.}). Sextant syncs, and so
 * proves intervals of, no topic the expression does not match, so these patterns cover every topic it reads; and
 * unlike a list of the topics mirrored today, a prefix covers the topics MirrorMaker 2 mirrors tomorrow.
 *
 * <p>Read conservatively: each alternative's prefix ends where the expression stops being literal (an unescaped
 * {@code .}, a class, a group), and a quantifier takes the character before it off the prefix. An alternative with
 * no literal beginning ({@code .*}, {@code (?i)...}) matches too much for any prefix: then there are no patterns.
 */
public final class TopicsIncludePatterns {

    private static final String META = ".[](){}*+?|^$\\";

    private TopicsIncludePatterns() {
    }

    /** The patterns, or empty when some alternative of {@code regex} has no literal beginning. */
    public static Optional<List<ResourcePattern>> of(String regex) {
        List<ResourcePattern> patterns = new ArrayList<>();
        for (String alternative : alternatives(regex)) {
            if (alternative.isEmpty()) {
                continue; // matches the empty name only, which no topic has
            }
            Optional<ResourcePattern> pattern = pattern(alternative);
            if (pattern.isEmpty()) {
                return Optional.empty();
            }
            patterns.add(pattern.get());
        }
        return patterns.isEmpty() ? Optional.empty() : Optional.of(withoutCovered(patterns));
    }

    /** The alternatives of {@code regex} at its top level: its {@code |} outside groups and classes. */
    static List<String> alternatives(String regex) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                int quoteEnd = regex.startsWith("\\Q", i) ? regex.indexOf("\\E", i + 2) : -1;
                i = regex.startsWith("\\Q", i) ? (quoteEnd < 0 ? regex.length() : quoteEnd + 1) : i + 1;
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                out.add(regex.substring(start, i));
                start = i + 1;
            }
        }
        out.add(regex.substring(start));
        return out;
    }

    /** One alternative's literal name, or the prefix its matches all begin with; empty when it has none. */
    private static Optional<ResourcePattern> pattern(String alternative) {
        StringBuilder literal = new StringBuilder();
        int i = alternative.startsWith("^") ? 1 : 0;
        while (i < alternative.length()) {
            int next = literalAt(alternative, i, literal);
            if (next < 0) {
                char c = alternative.charAt(i);
                // the character before '?', '*' or '{' may be absent or repeated: it is no longer a sure prefix
                if ((c == '?' || c == '*' || c == '{') && !literal.isEmpty()) {
                    literal.setLength(literal.length() - 1);
                }
                return literal.isEmpty() ? Optional.empty()
                        : Optional.of(SourceTopicReads.prefixed(literal.toString()));
            }
            i = next;
        }
        return literal.isEmpty() ? Optional.empty() : Optional.of(SourceTopicReads.literal(literal.toString()));
    }

    /**
     * Appends what {@code alternative} matches literally at {@code i} (a character, an escaped one, a {@code \Q...\E}
     * quote) and returns the index after it; -1 when what is at {@code i} is no literal.
     */
    private static int literalAt(String alternative, int i, StringBuilder literal) {
        char c = alternative.charAt(i);
        if (alternative.startsWith("\\Q", i)) {
            int end = alternative.indexOf("\\E", i + 2);
            literal.append(alternative, i + 2, end < 0 ? alternative.length() : end);
            return end < 0 ? alternative.length() : end + 2;
        }
        if (c == '\\') {
            // an escaped letter or digit is a class (\d) or a reference, not the character
            boolean escapedCharacter = i + 1 < alternative.length()
                    && !Character.isLetterOrDigit(alternative.charAt(i + 1));
            if (escapedCharacter) {
                literal.append(alternative.charAt(i + 1));
            }
            return escapedCharacter ? i + 2 : -1;
        }
        if (c == '$' && i == alternative.length() - 1) {
            return i + 1; // the end anchor: matches() anchors it anyway
        }
        if (META.indexOf(c) >= 0) {
            return -1;
        }
        literal.append(c);
        return i + 1;
    }

    /** Drops a pattern another already covers: a name or a longer prefix inside a prefix. */
    private static List<ResourcePattern> withoutCovered(List<ResourcePattern> patterns) {
        List<ResourcePattern> out = new ArrayList<>();
        for (ResourcePattern pattern : patterns) {
            boolean covered = patterns.stream().anyMatch(other -> other != pattern
                    && other.patternType() == PatternType.PREFIXED && pattern.name().startsWith(other.name())
                    && (pattern.patternType() == PatternType.LITERAL
                    || other.name().length() < pattern.name().length()));
            if (!covered && !out.contains(pattern)) {
                out.add(pattern);
            }
        }
        return out;
    }
}
