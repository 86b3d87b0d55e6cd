package dev.sextant.state;

import dev.sextant.translate.OffsetSyncPoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The offset-sync history in this JVM's memory, for use outside Kafka Streams: the failover command replays the
 * history topic into one. Ordered by upstream offset per partition, as the RocksDB store is. Not thread-safe.
 */
public final class InMemorySyncHistory implements WritableSyncHistory {

    private final Map<TopicPartition, TreeMap<Long, Long>> syncs = new HashMap<>();
    private final Map<String, Uuid> mirrorIncarnations = new HashMap<>();
    private String destinationCluster;

    @Override
    public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        TreeMap<Long, Long> partitionSyncs = syncs.get(new TopicPartition(topic, partition));
        if (partitionSyncs == null || upstreamOffset < 0) {
            return Optional.empty();
        }
        Map.Entry<Long, Long> floor = partitionSyncs.floorEntry(upstreamOffset);
        return floor == null ? Optional.empty()
                : Optional.of(new OffsetSyncPoint(topic, partition, floor.getKey(), floor.getValue()));
    }

    @Override
    public Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        TreeMap<Long, Long> partitionSyncs = syncs.get(new TopicPartition(topic, partition));
        if (partitionSyncs == null) {
            return Optional.empty();
        }
        Map.Entry<Long, Long> above = partitionSyncs.higherEntry(upstreamOffset);
        return above == null ? Optional.empty()
                : Optional.of(new OffsetSyncPoint(topic, partition, above.getKey(), above.getValue()));
    }

    @Override
    public void put(OffsetSyncPoint sync) {
        syncs.computeIfAbsent(new TopicPartition(sync.topic(), sync.partition()), tp -> new TreeMap<>())
                .put(sync.upstreamOffset(), sync.downstreamOffset());
    }

    @Override
    public void delete(String topic, int partition, long upstreamOffset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        TreeMap<Long, Long> partitionSyncs = syncs.get(tp);
        if (partitionSyncs != null) {
            partitionSyncs.remove(upstreamOffset);
            if (partitionSyncs.isEmpty()) {
                syncs.remove(tp);
            }
        }
    }

    @Override
    public void deletePartition(String topic, int partition) {
        syncs.remove(new TopicPartition(topic, partition));
    }

    /**
     * The same syncs the other way round, for failback: each sync (U on {@code topic}, D on its mirror) becomes one
     * of the mirror, {@code mirrorOf(topic)}, from D to U. Where two syncs share a mirror offset, the lower original
     * offset is kept: translated with it, a consumer reads a record again rather than skips one.
     */
    public InMemorySyncHistory inverted(UnaryOperator<String> mirrorOf) {
        return inverted(mirrorOf, topic -> true);
    }

    /** As {@link #inverted(UnaryOperator)}, of the topics {@code kept} accepts only. */
    public InMemorySyncHistory inverted(UnaryOperator<String> mirrorOf, Predicate<String> kept) {
        InMemorySyncHistory inverted = new InMemorySyncHistory();
        syncs.forEach((tp, byUpstream) -> {
            if (!kept.test(tp.topic())) {
                return;
            }
            TreeMap<Long, Long> byDownstream = inverted.syncs.computeIfAbsent(
                    new TopicPartition(mirrorOf.apply(tp.topic()), tp.partition()), k -> new TreeMap<>());
            byUpstream.forEach((upstream, downstream) -> byDownstream.merge(downstream, upstream, Math::min));
        });
        return inverted;
    }

    /** The topics that have at least one sync. */
    public Set<String> topics() {
        Set<String> topics = new TreeSet<>();
        syncs.keySet().forEach(tp -> topics.add(tp.topic()));
        return topics;
    }

    /** The newest sync of each partition of {@code topic} that has one. */
    public List<OffsetSyncPoint> newest(String topic) {
        List<OffsetSyncPoint> newest = new ArrayList<>();
        syncs.forEach((tp, byUpstream) -> {
            if (tp.topic().equals(topic)) {
                Map.Entry<Long, Long> last = byUpstream.lastEntry();
                newest.add(new OffsetSyncPoint(topic, tp.partition(), last.getKey(), last.getValue()));
            }
        });
        return newest;
    }

    /** Partitions that have at least one sync. */
    public int partitions() {
        return syncs.size();
    }

    /** Syncs held, over every partition. */
    public long size() {
        return syncs.values().stream().mapToLong(Map::size).sum();
    }

    @Override
    public void destinationCluster(String clusterId) {
        destinationCluster = clusterId;
    }

    @Override
    public void mirrorIncarnation(String topic, Uuid topicId) {
        if (topicId == null) {
            mirrorIncarnations.remove(topic);
        } else {
            mirrorIncarnations.put(topic, topicId);
        }
    }

    /** The destination id of the topic's mirror that its history describes, when recorded. */
    public Optional<Uuid> mirrorIncarnation(String topic) {
        return Optional.ofNullable(mirrorIncarnations.get(topic));
    }

    /** The destination cluster the history pins, when it does. */
    public Optional<String> destinationCluster() {
        return Optional.ofNullable(destinationCluster);
    }
}
