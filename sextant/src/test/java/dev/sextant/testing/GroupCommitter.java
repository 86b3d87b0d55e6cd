package dev.sextant.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code groups} consumer groups {@code <prefix>0..} committing on the source, in turn and further each round (group
 * {@code g} on partition {@code g % partitions} of {@code topic}), until closed; and a batched read of where those
 * groups stand on a cluster. Commits go through the Admin API, as a consumer's would (OffsetCommit).
 */
public final class GroupCommitter implements AutoCloseable {

    private final Admin source;
    private final String prefix;
    private final String topic;
    private final int partitions;
    private final int groups;
    private final long maxOffset;
    private final long stride;
    private final Map<String, Long> lastCommitted = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile RuntimeException failure;

    /** @param maxOffset commits never go past it (the topic's log end) */
    public GroupCommitter(Admin source, String prefix, String topic, int partitions, int groups, long maxOffset) {
        this(source, prefix, topic, partitions, groups, maxOffset, 0);
    }

    /**
     * @param stride each group of a partition starts this many offsets after the one before it, so that groups
     *               commit in different stretches of the log (0: all start at the beginning)
     */
    public GroupCommitter(Admin source, String prefix, String topic, int partitions, int groups, long maxOffset,
                          long stride) {
        this.stride = stride;
        this.source = source;
        this.prefix = prefix;
        this.topic = topic;
        this.partitions = partitions;
        this.groups = groups;
        this.maxOffset = maxOffset;
        this.thread = new Thread(this::commitInRounds, prefix + "committer");
        thread.start();
    }

    private void commitInRounds() {
        try {
            for (long round = 1; running.get(); round++) {
                for (int g = 0; g < groups && running.get(); g++) {
                    long offset = Math.min(maxOffset, (g / partitions) * stride + round * 7 + g % 7);
                    source.alterConsumerGroupOffsets(group(g), Map.of(partitionOf(g), new OffsetAndMetadata(offset)))
                            .all().get(30, TimeUnit.SECONDS);
                    lastCommitted.put(group(g), offset);
                }
            }
        } catch (Exception e) {
            failure = new IllegalStateException("committing on the source failed", e);
        }
    }

    public String group(int g) {
        return prefix + g;
    }

    private TopicPartition partitionOf(int g) {
        return new TopicPartition(topic, g % partitions);
    }

    /** Stops committing; returns each group's last committed offset. */
    public Map<String, Long> stop() throws InterruptedException {
        running.set(false);
        thread.join(60_000);
        if (failure != null) {
            throw failure;
        }
        return Map.copyOf(lastCommitted);
    }

    /** Where each group stands on {@code cluster} (groups without an offset there are left out), in one batch. */
    public Map<String, Long> offsetsOn(Admin cluster) {
        return offsetsOn(cluster, topic);
    }

    /** Where each group stands on {@code cluster}, whose copy of the topic is called {@code topicThere}. */
    public Map<String, Long> offsetsOn(Admin cluster, String topicThere) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        for (int g = 0; g < groups; g++) {
            specs.put(group(g), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(
                    new TopicPartition(topicThere, g % partitions))));
        }
        Map<String, Long> out = new HashMap<>();
        try {
            cluster.listConsumerGroupOffsets(specs).all().get(60, TimeUnit.SECONDS).forEach((group, offsets) ->
                    offsets.values().stream().filter(om -> om != null).findFirst()
                            .ifPresent(om -> out.put(group, om.offset())));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the groups' offsets", e);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(60_000);
    }
}
