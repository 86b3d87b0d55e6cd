package dev.sextant.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The value of a filter key ({@code groups.include}, {@code groups.exclude}, {@code topics.include},
 * {@code topics.exclude}): a Java regular expression, or MirrorMaker 2's form of its {@code groups} and
 * {@code topics} keys, a comma-separated list of them, any of which may match ({@code orders.*, payments} is
 * {@code orders.*|payments}), so that a filter copied from MirrorMaker 2 means what it meant there.
 *
 * <p>A comma separates two expressions only outside {@code {}}, {@code []} and {@code ()}, unescaped and unquoted
 * ({@code \Q...\E}): {@code a{1,3}} and {@code [,;]} stay one expression, and {@code \,} is a literal comma (Kafka
 * topic names have none; a group id may). Each expression is trimmed and an empty one dropped, and they are joined
 * with {@code |} as MirrorMaker 2 joins them.
 */
final class PatternList {

    private PatternList() {
    }

    /** {@code value} as one regular expression: the list's expressions joined with {@code |}. */
    static String regex(String value) {
        List<String> parts = expressions(value);
        return parts.size() == 1 ? parts.get(0) : String.join("|", parts);
    }

    /** {@code value} compiled as {@link #regex}. */
    static Pattern compile(String value) {
        return Pattern.compile(regex(value));
    }

    /**
     * The expressions of {@code value}: split at its top-level commas, trimmed, empty ones dropped; {@code value}
     * itself when it has no such comma.
     */
    static List<String> expressions(String value) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                i = escapeEnd(value, i);
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
                if (value.startsWith("[]", i) || value.startsWith("[^]", i)) {
                    i = value.indexOf(']', i); // a ']' first in a class is a literal ']'
                }
            } else if (c == '(' || c == '{') {
                depth++;
            } else if ((c == ')' || c == '}') && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(value.substring(start, i));
                start = i + 1;
            }
        }
        if (parts.isEmpty()) {
            return List.of(value);
        }
        parts.add(value.substring(start));
        return parts.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
    }

    /** The last index of the escape at {@code i}: the escaped character, or the {@code \\E} ending a quote. */
    private static int escapeEnd(String value, int i) {
        if (value.startsWith("\\Q", i)) {
            int end = value.indexOf("\\E", i + 2);
            return end < 0 ? value.length() : end + 1;
        }
        return i + 1;
    }
}
