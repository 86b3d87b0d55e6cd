package dev.sextant.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions by edit distance. */
final class Suggestions {

    private Suggestions() {
    }

    /** Levenshtein distance between two strings. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * The candidate closest to {@code input}, if it is close enough to be a plausible typo: within a third of the
     * input's length (at least 3 edits); else the longest candidate that ends with the input as its last dotted
     * segments ({@code interval.ms} → {@code sync.interval.ms}), starts with it ({@code follow} →
     * {@code follow-source}) or starts it ({@code query.listen.address} → {@code query.listen}).
     */
    static Optional<String> closest(String input, Collection<String> candidates) {
        Optional<String> typo = nearest(input, candidates, Math.max(3, input.length() / 3));
        if (typo.isPresent()) {
            return typo;
        }
        String lower = input.toLowerCase(Locale.ROOT);
        String longest = null;
        for (String candidate : candidates) {
            String c = candidate.toLowerCase(Locale.ROOT);
            boolean related = c.endsWith("." + lower)
                    || (lower.length() >= 3 && (c.startsWith(lower) || lower.startsWith(c)));
            if (related && (longest == null || candidate.length() > longest.length())) {
                longest = candidate;
            }
        }
        return Optional.ofNullable(longest);
    }

    /** The candidate closest to {@code input} (ignoring case), when at most {@code maxDistance} edits away. */
    static Optional<String> nearest(String input, Collection<String> candidates, int maxDistance) {
        String lower = input.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int d = editDistance(lower, candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return bestDistance <= maxDistance ? Optional.ofNullable(best) : Optional.empty();
    }
}
