package dev.sextant.bench;

import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every offset sync MirrorMaker 2 writes, read live from {@code mm2-offset-syncs.destination.internal} on the
 * source (the topic is compacted, but it does not compact during a run). Gives the reference answers: the actual
 * spacing of the syncs, and the best translation anyone can make from them (the newest sync at or below a
 * committed offset, +1 past it: MirrorMaker's rule over the full history).
 */
final class OffsetSyncRecorder implements AutoCloseable {

    static final String TOPIC = "mm2-offset-syncs.destination.internal";

    private final Map<TopicPartition, NavigableMap<Long, Long>> syncs = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    OffsetSyncRecorder(Map<String, Object> sourceClientConfig) {
        Map<String, Object> props = new HashMap<>(sourceClientConfig);
        props.put("client.id", "bench-offset-sync-recorder");
        props.put("fetch.max.wait.ms", 10); // the lagging topic's producer waits for new syncs
        thread = new Thread(() -> run(props), "bench-offset-sync-recorder");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(Map<String, Object> props) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    try {
                        OffsetSync s = OffsetSyncDecoder.decode(r.key(), r.value());
                        NavigableMap<Long, Long> map = syncs.computeIfAbsent(
                                new TopicPartition(s.topic(), s.partition()), k -> new TreeMap<>());
                        synchronized (map) {
                            map.put(s.upstreamOffset(), s.downstreamOffset());
                        }
                    } catch (UndecodableRecordException e) {
                        // not a sync; ignore
                    }
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                Bench.log("offset-sync recorder stopped: %s", e);
            }
        }
    }

    /** The newest sync's upstream offset of a partition, or -1. */
    long newestUpstream(String topic, int partition) {
        NavigableMap<Long, Long> map = syncs.get(new TopicPartition(topic, partition));
        if (map == null) {
            return -1;
        }
        synchronized (map) {
            return map.isEmpty() ? -1 : map.lastKey();
        }
    }

    /**
     * The oldest sync's upstream offset of a partition, or -1 while it has none. MirrorMaker 2 coalesces syncs beyond
     * 10 outstanding, so on a topic of many partitions filled at once the first sync of a partition can be at its
     * latest record rather than at 0.
     */
    long oldestUpstream(String topic, int partition) {
        NavigableMap<Long, Long> map = syncs.get(new TopicPartition(topic, partition));
        if (map == null) {
            return -1;
        }
        synchronized (map) {
            return map.isEmpty() ? -1 : map.firstKey();
        }
    }

    /** The best translation of {@code committed}: newest sync with upstream &le; it, +1 when past it; -1 if none. */
    long bestTranslation(String topic, int partition, long committed) {
        NavigableMap<Long, Long> map = syncs.get(new TopicPartition(topic, partition));
        if (map == null) {
            return -1;
        }
        synchronized (map) {
            Map.Entry<Long, Long> e = map.floorEntry(committed);
            if (e == null) {
                return -1;
            }
            return e.getKey() == committed ? e.getValue() : e.getValue() + 1;
        }
    }

    /** True when MirrorMaker 2 synced a record of the partition above {@code committed}: the interval is closed. */
    boolean hasSyncAbove(String topic, int partition, long committed) {
        NavigableMap<Long, Long> map = syncs.get(new TopicPartition(topic, partition));
        if (map == null) {
            return false;
        }
        synchronized (map) {
            return map.higherKey(committed) != null;
        }
    }

    /**
     * {largest gap in upstream records between consecutive syncs of a partition, number of syncs, number of gaps
     * larger than {@code wideGap}}.
     */
    long[] spacing(String topic, int partition, long wideGap) {
        NavigableMap<Long, Long> map = syncs.get(new TopicPartition(topic, partition));
        if (map == null) {
            return new long[] {0, 0, 0};
        }
        synchronized (map) {
            long maxGap = 0;
            long wide = 0;
            Long previous = null;
            for (long upstream : map.keySet()) {
                if (previous != null) {
                    maxGap = Math.max(maxGap, upstream - previous);
                    wide += upstream - previous > wideGap ? 1 : 0;
                }
                previous = upstream;
            }
            return new long[] {maxGap, map.size(), wide};
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
