package dev.sextant.sync;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The filter's verdict on each group or topic name seen, remembered (a regex match per record would cost more than
 * the rest of decoding), and for names it lets through, one {@code String} instance per name. Every decoded record
 * carries a fresh copy of its group and topic; keys built from the one instance instead hash it once (a
 * {@code String} caches its hash) and compare by reference in each of the several hash maps a commit goes through.
 *
 * <p>Holds every name seen, included or not, so no name is matched twice; stream thread only.
 */
final class IncludedNames {

    /** Marks a name the filter refused (compared by identity). */
    private static final String EXCLUDED = new String("excluded");

    private final Predicate<String> filter;
    private final Map<String, String> seen = new HashMap<>();

    IncludedNames(Predicate<String> filter) {
        this.filter = filter;
    }

    /** The one instance of {@code name} when the filter lets it through; null when it does not. */
    String admit(String name) {
        String known = seen.get(name);
        if (known == null) {
            known = filter.test(name) ? name : EXCLUDED;
            seen.put(name, known);
        }
        return known == EXCLUDED ? null : known;
    }

    /**
     * The one instance of {@code name} (for a name read back from a store: the filter may have changed since it was
     * written, and the name is kept either way).
     */
    String canonical(String name) {
        String admitted = admit(name);
        return admitted == null ? name : admitted;
    }

    boolean includes(String name) {
        return admit(name) != null;
    }
}
