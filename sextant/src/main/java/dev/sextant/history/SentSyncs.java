package dev.sextant.history;

import dev.sextant.state.OffsetSyncStore;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * The newest sync the intake sent per partition, ahead of the global store, which reads the history topic back later:
 * what a new sync is judged against. A partition whose history the intake forgot (a recreated source topic, a
 * re-seeded mirror) has no newest sync until a new one is stored, whatever the store still holds before it reads
 * the reset back.
 */
final class SentSyncs {

    private final OffsetSyncStore history;
    private final HistorySink sink;
    private final Map<TopicPartition, OffsetSyncPoint> sent = new HashMap<>();
    private final Set<TopicPartition> forgotten = new HashSet<>();

    SentSyncs(OffsetSyncStore history, HistorySink sink) {
        this.history = history;
        this.sink = sink;
    }

    /** The partition's newest sync, or null when it has none. */
    OffsetSyncPoint newest(TopicPartition tp) {
        OffsetSyncPoint last = sent.get(tp);
        if (last != null || forgotten.contains(tp)) {
            return last;
        }
        return sent.computeIfAbsent(tp, p -> history.newest(p.topic(), p.partition()).orElse(null));
    }

    /** The newest sync sent for the partition, as far as this intake knows without the store; null for none. */
    OffsetSyncPoint lastSent(TopicPartition tp) {
        return sent.get(tp);
    }

    /** A sync sent to the history topic. */
    void sent(OffsetSyncPoint sync) {
        TopicPartition tp = new TopicPartition(sync.topic(), sync.partition());
        sent.put(tp, sync);
        forgotten.remove(tp);
    }

    /**
     * Forgets the topic's history: a reset marker for each partition it has history of (and for {@code also}).
     *
     * @return the partitions reset
     */
    Set<Integer> forget(String topic, Collection<Integer> also, long now) {
        Set<Integer> partitions = new TreeSet<>(also);
        history.partitions().stream().filter(tp -> tp.topic().equals(topic)).forEach(tp -> partitions.add(
                tp.partition()));
        sent.keySet().stream().filter(tp -> tp.topic().equals(topic)).forEach(tp -> partitions.add(tp.partition()));
        for (int partition : partitions) {
            TopicPartition tp = new TopicPartition(topic, partition);
            sink.reset(topic, partition, now);
            sent.remove(tp);
            forgotten.add(tp);
        }
        return partitions;
    }

    /** The newest sync of each partition of {@code topic} with history, stored or sent. */
    List<OffsetSyncPoint> newestOf(String topic) {
        Set<TopicPartition> partitions = new TreeSet<>(Comparator.comparingInt(TopicPartition::partition));
        history.partitions().stream().filter(tp -> tp.topic().equals(topic)).forEach(partitions::add);
        sent.keySet().stream().filter(tp -> tp.topic().equals(topic)).forEach(partitions::add);
        return partitions.stream().map(this::newest).filter(Objects::nonNull).toList();
    }

    /** The topics with history, stored or sent. */
    Set<String> topics() {
        Set<String> topics = new TreeSet<>();
        history.partitions().forEach(tp -> topics.add(tp.topic()));
        sent.keySet().forEach(tp -> topics.add(tp.topic()));
        return topics;
    }
}
