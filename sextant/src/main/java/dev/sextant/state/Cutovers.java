package dev.sextant.state;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The groups cut over to the destination, as this instance has read them from Sextant's cutovers topic (a global
 * store: every instance holds all of them). Written by the global stream thread, read by the stream threads (a cut-over
 * group is never written from the source again) and the query threads.
 *
 * <p>Invariant: holds exactly the groups whose latest record on the topic is not a tombstone, once the global store
 * was restored; Kafka Streams starts no stream thread before that.
 */
public final class Cutovers {

    /** The global store that holds the topic. */
    public static final String STORE = "cutovers";

    private final Map<String, CutoverRecord> groups = new ConcurrentHashMap<>();

    /** The group's cutover, or empty when the sync moves it. */
    public Optional<CutoverRecord> of(String group) {
        return groups.isEmpty() ? Optional.empty() : Optional.ofNullable(groups.get(group));
    }

    public boolean cutOver(String group) {
        return !groups.isEmpty() && groups.containsKey(group);
    }

    public void put(CutoverRecord record) {
        groups.put(record.group(), record);
    }

    /** The group was given back to the sync ({@code cutover --undo}). */
    public void remove(String group) {
        groups.remove(group);
    }

    public int size() {
        return groups.size();
    }

    public Collection<CutoverRecord> all() {
        return groups.values();
    }
}
