package dev.sextant.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the Admin API poll of the source's committed offsets has handed on so far, and what changed since: the pure
 * part of {@link AdminCommitPoller}. A partition whose committed offset (or metadata, or leader epoch) differs from
 * what was handed on is a commit; one handed on that a group no longer has, or a group no longer listed, is a
 * deletion, as the coordinator's tombstone in {@code __consumer_offsets} is.
 *
 * <p>Invariants: a group whose offsets could not be read this poll changes nothing (neither commits nor deletions);
 * what is handed on is only what {@link #handedOn} was told went out, so a change whose write failed is found again
 * at the next poll. Not thread-safe: the poller's thread only.
 */
final class PolledCommits {

    /**
     * One change to hand on.
     *
     * @param committed the new commit, or null when the partition's offset was deleted
     */
    record Change(String group, TopicPartition partition, OffsetAndMetadata committed) {
        Change {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(partition, "partition");
        }

        boolean deleted() {
            return committed == null;
        }
    }

    /** What was handed on, by group and partition. */
    private final Map<String, Map<TopicPartition, OffsetAndMetadata>> handedOn = new HashMap<>();

    /**
     * The changes between what was handed on and one poll.
     *
     * @param listed  every group the poll listed that is synced here (whether or not its offsets were read)
     * @param offsets the committed offsets of the groups read this poll; a group listed but missing here could not
     *                be read
     */
    List<Change> changes(Set<String> listed, Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets) {
        List<Change> changes = new ArrayList<>();
        offsets.forEach((group, committed) -> {
            Map<TopicPartition, OffsetAndMetadata> before = handedOn.getOrDefault(group, Map.of());
            committed.forEach((tp, om) -> {
                if (om != null && !om.equals(before.get(tp))) {
                    changes.add(new Change(group, tp, om));
                }
            });
            before.keySet().stream().filter(tp -> committed.get(tp) == null)
                    .forEach(tp -> changes.add(new Change(group, tp, null)));
        });
        handedOn.forEach((group, before) -> {
            if (!listed.contains(group)) {
                before.keySet().forEach(tp -> changes.add(new Change(group, tp, null)));
            }
        });
        return changes;
    }

    /** {@code change} was written: the next poll compares with it. */
    void handedOn(Change change) {
        if (change.deleted()) {
            Map<TopicPartition, OffsetAndMetadata> group = handedOn.get(change.group());
            if (group != null) {
                group.remove(change.partition());
                if (group.isEmpty()) {
                    handedOn.remove(change.group());
                }
            }
        } else {
            handedOn.computeIfAbsent(change.group(), g -> new HashMap<>()).put(change.partition(), change.committed());
        }
    }

    /**
     * Forgets the groups {@code gone} accepts (their task moved to another instance): if they come back here, all
     * their offsets are handed on again, as a task taken over needs.
     */
    void forget(Predicate<String> gone) {
        handedOn.keySet().removeIf(gone);
    }

    /** How many groups have offsets handed on. */
    int groups() {
        return handedOn.size();
    }
}
