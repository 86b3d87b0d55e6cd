package dev.sextant.bench;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntToLongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces numbered records to a fresh topic, round-robin over its partitions, at a paced rate: the value of
 * record {@code i} of a partition is {@code i}, which is also its offset there (fresh topic, one request in flight,
 * no transactions) and, because MirrorMaker copies 1:1 into a fresh topic, its offset on the mirror. Pacing keeps
 * MirrorMaker emitting a sync every {@code offset.lag.max} records (with more than 10 syncs in flight it coalesces
 * them). Tracks the acknowledged end offset of every partition: what a consumer that keeps up has read.
 */
final class NumberedProducer implements AutoCloseable {

    private final String topic;
    private final int partitions;
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicLongArray acked;
    private final long[] sent;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean running;
    private Thread thread;

    NumberedProducer(Map<String, Object> clientConfig, String topic, int partitions) {
        this(clientConfig, topic, partitions, 0);
    }

    /** Continues a topic whose partitions hold {@code alreadyThere} numbered records each (the next is that number). */
    NumberedProducer(Map<String, Object> clientConfig, String topic, int partitions, long alreadyThere) {
        this.topic = topic;
        this.partitions = partitions;
        Map<String, Object> props = new HashMap<>(clientConfig);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // Not idempotent: on a freshly created topic the first batch of a partition can fail (the partition is not
        // ready yet) while later batches of the same idempotent producer are accepted; its retry is then "out of
        // order" and the producer retries until delivery.timeout.ms (seen with 100 partitions on Kafka 4.4). One
        // request in flight keeps the order; the mirror check would notice a duplicate from a retry.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-producer-" + topic);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.acked = new AtomicLongArray(partitions);
        this.sent = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            acked.set(p, alreadyThere);
            sent[p] = alreadyThere;
        }
    }

    /** Produces {@code perPartition} records to every partition at {@code perSecond} in total, then flushes. */
    void produce(long perPartition, int perSecond) {
        produce(perPartition, perSecond, null, Long.MAX_VALUE);
    }

    /**
     * As {@link #produce(long, int)}, but never more than {@code maxAhead} records past MirrorMaker's newest offset
     * sync of a partition ({@code newestSync}, by partition). MirrorMaker keeps at most 10 syncs in flight and
     * coalesces the rest; with fewer than 10 syncs' worth of records beyond the last one that arrived, it never has
     * to, so the syncs stay {@code offset.lag.max} apart whatever the machine's load.
     */
    void produce(long perPartition, int perSecond, IntToLongFunction newestSync, long maxAhead) {
        long start = System.nanoTime();
        long total = 0;
        for (long i = 0; i < perPartition; i++) {
            for (int p = 0; p < partitions; p++) {
                if (newestSync != null) {
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (i - newestSync.applyAsLong(p) > maxAhead && System.nanoTime() < deadline) {
                        producer.flush();
                        Bench.sleep(1);
                    }
                }
                send(p);
                total++;
            }
            if (total % 256 == 0) {
                pace(total, perSecond, start);
            }
        }
        producer.flush();
        check();
    }

    /** Produces in the background at {@code perSecond} until {@link #stop()}. */
    void startContinuous(int perSecond) {
        running = true;
        thread = new Thread(() -> {
            long start = System.nanoTime();
            long total = 0;
            while (running) {
                for (int p = 0; p < partitions && running; p++) {
                    send(p);
                    total++;
                }
                pace(total, perSecond, start);
            }
            producer.flush();
        }, "bench-producer-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        producer.flush();
        check();
    }

    private void send(int p) {
        long n = sent[p]++;
        int partition = p;
        producer.send(new ProducerRecord<>(topic, partition, null, Long.toString(n).getBytes(StandardCharsets.UTF_8)),
                (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        acked.accumulateAndGet(partition, metadata.offset() + 1, Math::max);
                    }
                });
    }

    private static void pace(long sent, int perSecond, long startNanos) {
        long due = startNanos + sent * 1_000_000_000L / perSecond;
        long wait = due - System.nanoTime();
        if (wait > 1_000_000L) {
            Bench.sleep(wait / 1_000_000L);
        }
    }

    private void check() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("producing to " + topic + " failed", e);
        }
    }

    /** Acknowledged end offset of each partition: where a consumer that keeps up would commit. */
    long[] ackedEnds() {
        long[] out = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            out[p] = acked.get(p);
        }
        return out;
    }

    String topic() {
        return topic;
    }

    int partitions() {
        return partitions;
    }

    @Override
    public void close() {
        running = false;
        producer.close();
    }
}
