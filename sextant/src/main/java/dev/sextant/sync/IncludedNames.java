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
 * <p>Holds the names seen, included or not, so a name is matched once, with two bounds so that churning names (console
 * consumers, jobs with a fresh group id per run) do not grow it for ever: a group's name is forgotten when the group is
 * deleted on the source ({@link #forget}), and past {@link #MAX_NAMES} the memo starts over (what that costs is one
 * regex match per name seen again). Stream thread only.
 */
final class IncludedNames {

    /** Marks a name the filter refused (compared by identity). */
    private static final String EXCLUDED = new String("excluded");

    /** Names remembered at most, per task and kind: far above a task's live groups, bounded however many come. */
    static final int MAX_NAMES = 200_000;

    private final Predicate<String> filter;
    private final Map<String, String> seen = new HashMap<>();

    IncludedNames(Predicate<String> filter) {
        this.filter = filter;
    }

    /** The one instance of {@code name} when the filter lets it through; null when it does not. */
    String admit(String name) {
        String known = seen.get(name);
        if (known == null) {
            if (seen.size() >= MAX_NAMES) {
                seen.clear();
            }
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

    /** The name's group is gone: no need to remember it (if it comes back, it is matched again). */
    void forget(String name) {
        seen.remove(name);
    }

    int size() {
        return seen.size();
    }
}
