package dev.sextant.sync;

import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.PositionStore;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The owning task's positions: the changelogged store, plus in memory
 * <ul>
 *   <li>every position of the task, so reads (one per commit, two per position per apply) come from a hash map;
 *       the store is written (behind, once per key per Streams commit: {@code WriteBehindKeyValueStore}), and read
 *       back only by {@link #load};</li>
 *   <li>the positions a dead-letter reason can come from (a guard, a missing topic, an untranslatable offset), by
 *       group, so a group's reason is worked out from those few instead of from a scan of all its partitions.</li>
 * </ul>
 *
 * <p>Invariant: every write of the task goes through here, so the memory holds exactly the stored positions that
 * {@linkplain PartitionPosition#needsApply need applying} and those whose status is a {@linkplain #isProblem
 * problem}; {@link #load} rebuilds both after a restart or a rebalance.
 */
final class IndexedPositions {

    private final PositionStore store;
    private final Map<String, Map<PositionKey, PartitionPosition>> problems = new HashMap<>();
    private final Map<PositionKey, PartitionPosition> all = new HashMap<>();

    /** Applied to keys read back by {@link #load}: their strings become the ones new commits' keys use. */
    private final UnaryOperator<PositionKey> canonical;

    IndexedPositions(PositionStore store) {
        this(store, UnaryOperator.identity());
    }

    IndexedPositions(PositionStore store, UnaryOperator<PositionKey> canonical) {
        this.store = store;
        this.canonical = canonical;
    }

    static boolean isProblem(PositionStatus status) {
        return switch (status) {
            case TYPE_CONFLICT, DESTINATION_UNSUPPORTED, SOURCE_CHANGED, GROUP_ACTIVE, DESTINATION_DIVERGED,
                 TOPIC_NOT_MIRRORED, UNTRANSLATABLE -> true;
            default -> false;
        };
    }

    PartitionPosition get(PositionKey key) {
        return all.get(key);
    }

    void put(PositionKey key, PartitionPosition position) {
        store.put(key, position);
        all.put(key, position);
        if (isProblem(position.status())) {
            problems.computeIfAbsent(key.group(), g -> new HashMap<>()).put(key, position);
        } else {
            unindex(key);
        }
    }

    void delete(PositionKey key) {
        store.delete(key);
        all.remove(key);
        unindex(key);
    }

    void deleteGroup(String group) {
        for (Map.Entry<PositionKey, PartitionPosition> e : store.group(group)) {
            delete(e.getKey());
        }
    }

    /** The group's positions whose status is a problem; empty when it has none. */
    Map<PositionKey, PartitionPosition> problems(String group) {
        return problems.getOrDefault(group, Map.of());
    }

    /** Reads every stored position once, rebuilding the index, and hands each to {@code action}. */
    void load(BiConsumer<PositionKey, PartitionPosition> action) {
        problems.clear();
        all.clear();
        store.forEach((stored, position) -> {
            PositionKey key = canonical.apply(stored);
            all.put(key, position);
            if (isProblem(position.status())) {
                problems.computeIfAbsent(key.group(), g -> new HashMap<>()).put(key, position);
            }
            action.accept(key, position);
        });
    }

    /** How many positions the task holds. */
    int size() {
        return all.size();
    }

    /** Hands every stored position to {@code action} (from memory, which holds exactly what is stored). */
    void forEachStored(BiConsumer<PositionKey, PartitionPosition> action) {
        all.forEach(action);
    }

    private void unindex(PositionKey key) {
        Map<PositionKey, PartitionPosition> ofGroup = problems.get(key.group());
        if (ofGroup != null && ofGroup.remove(key) != null && ofGroup.isEmpty()) {
            problems.remove(key.group());
        }
    }
}
