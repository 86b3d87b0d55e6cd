package dev.sextant.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The physical limit on group writes against the benchmark's destination: one {@code alterConsumerGroupOffsets} per
 * group, every partition of the caught-up topic's mirror, nothing read before, pipelined over as many Admin clients
 * as writes in flight (an Admin client sends one request at a time per connection), stepping the writes in flight up
 * ({@link #IN_FLIGHT}) and keeping the best sustained rate. It runs after the scale's systems stopped, with no commit
 * load: what the destination answers on this machine when nothing else competes for it, the figure Sextant's writes
 * a second are held against. Its groups ({@code bench-bw-N-i}) are its own.
 *
 * @param bestWritesPerSec the highest rate of any step
 * @param bestInFlight     the writes in flight of that step
 * @param byInFlight       each step's rate, by writes in flight
 */
record BareWriter(double bestWritesPerSec, int bestInFlight, Map<Integer, Double> byInFlight) {

    static final List<Integer> IN_FLIGHT = List.of(4, 8, 16, 32, 64);
    /** How long each step writes; the first second of each is not counted (connections, coordinator lookups). */
    static final long STEP_MS = 5_000;
    private static final long WARM_UP_MS = 1_000;

    /**
     * @param destinationTopic the mirror of the scale's caught-up topic
     * @param groups           how many groups to write in turn
     */
    static BareWriter measure(Session session, int scale, String destinationTopic, int partitions, int groups) {
        Map<Integer, Double> rates = new LinkedHashMap<>();
        List<Admin> admins = new ArrayList<>();
        try {
            for (int i = 0; i < IN_FLIGHT.get(IN_FLIGHT.size() - 1); i++) {
                admins.add(Admin.create(new HashMap<>(session.clusters.destination().clientProperties())));
            }
            long offset = 0;
            for (int inFlight : IN_FLIGHT) {
                rates.put(inFlight, step(admins.subList(0, inFlight), "bench-bw-" + scale + "-", destinationTopic,
                        partitions, groups, ++offset));
                Bench.log("bare writer: %d writes in flight: %.0f group writes/s", inFlight, rates.get(inFlight));
            }
        } finally {
            admins.forEach(a -> a.close(Duration.ofSeconds(5)));
        }
        Map.Entry<Integer, Double> best = rates.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        return new BareWriter(best.getValue(), best.getKey(), rates);
    }

    /** One step: writes for {@link #STEP_MS}, each client one write at a time; the rate after the warm-up. */
    private static double step(List<Admin> admins, String prefix, String topic, int partitions, int groups,
                               long offset) {
        BlockingQueue<Admin> idle = new ArrayBlockingQueue<>(admins.size(), false, admins);
        AtomicLong answered = new AtomicLong();
        long start = System.nanoTime();
        long warm = start + TimeUnit.MILLISECONDS.toNanos(WARM_UP_MS);
        long end = start + TimeUnit.MILLISECONDS.toNanos(STEP_MS);
        long warmAnswered = -1;
        long countedFrom = start;
        int next = 0;
        try {
            while (System.nanoTime() < end) {
                if (warmAnswered < 0 && System.nanoTime() >= warm) {
                    warmAnswered = answered.get();
                    countedFrom = System.nanoTime();
                }
                Admin client = idle.poll(100, TimeUnit.MILLISECONDS);
                if (client == null) {
                    continue;
                }
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int p = 0; p < partitions; p++) {
                    offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata(offset, "bare writer"));
                }
                client.alterConsumerGroupOffsets(prefix + (next++ % groups), offsets).all().whenComplete((v, e) -> {
                    if (e == null) {
                        answered.incrementAndGet(); // a refused write is not a write the destination took
                    }
                    idle.add(client);
                });
            }
            long counted = answered.get() - Math.max(0, warmAnswered);
            double seconds = (System.nanoTime() - countedFrom) / 1e9;
            for (int i = 0; i < admins.size(); i++) {
                idle.take(); // the step's writes answered before the next starts
            }
            return counted / seconds;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
