package dev.sextant.source;

import dev.sextant.decode.OffsetCommitBytes;
import dev.sextant.domain.CoordinatorPartitions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code source.offsets.read=admin}: reads the source's committed offsets through the Admin API every
 * {@code source.offsets.poll.interval.ms} (ListGroups, then one batched OffsetFetch per coordinator, as MirrorMaker 2's
 * checkpoint connector does) and writes each change to Sextant's own commits topic as the group coordinator writes it
 * to {@code __consumer_offsets} ({@link OffsetCommitBytes}), in the partition the coordinator would use
 * ({@link CoordinatorPartitions}). The topology reads that topic in place of {@code __consumer_offsets}, so the
 * translation, the guards, the dead letters and the queries are the log's.
 *
 * <p>Each instance polls only the groups whose partition of the commits topic its own tasks read
 * ({@code ownedPartitions}), so instances do not write the same change twice; a group whose task moves here is
 * handed on whole at the next poll ({@link PolledCommits#forget}). A commit reaches its task about one poll interval
 * after it was made; commits made between two polls are seen as the last of them, and the commit time written is
 * when the poll saw it. Share groups are not read (their state is in {@code __share_group_state}).
 *
 * <p>One per instance, on its own thread; a poll that fails is logged and the next one tries again.
 */
public final class AdminCommitPoller implements AutoCloseable {

    /** Groups asked for their offsets in one batched OffsetFetch. */
    static final int GROUP_PAGE = 500;
    private static final long TIMEOUT_MS = 30_000;
    private static final long WARN_EVERY_MS = 60_000;
    private static final Logger log = LoggerFactory.getLogger(AdminCommitPoller.class);

    private final Admin admin;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Predicate<String> includeGroup;
    private final Supplier<Set<Integer>> ownedPartitions;
    private final long intervalMs;
    private final Clock clock;
    private final PolledCommits polled = new PolledCommits();
    private ScheduledExecutorService thread;
    private int partitions = -1;
    private long lastWarnAt = Long.MIN_VALUE;

    /**
     * @param topic           Sextant's commits topic on the source ({@code <application.id>-source-commits})
     * @param ownedPartitions the partitions of {@code topic} this instance's tasks read now
     */
    public AdminCommitPoller(Map<String, Object> clientConfig, String topic, Predicate<String> includeGroup,
                             Supplier<Set<Integer>> ownedPartitions, long intervalMs, Clock clock) {
        this(Admin.create(clientConfig), new KafkaProducer<>(producerConfig(clientConfig)), topic, includeGroup,
                ownedPartitions, intervalMs, clock);
    }

    AdminCommitPoller(Admin admin, Producer<byte[], byte[]> producer, String topic, Predicate<String> includeGroup,
                      Supplier<Set<Integer>> ownedPartitions, long intervalMs, Clock clock) {
        this.admin = admin;
        this.producer = producer;
        this.topic = topic;
        this.includeGroup = includeGroup;
        this.ownedPartitions = ownedPartitions;
        this.intervalMs = intervalMs;
        this.clock = clock;
    }

    private static Map<String, Object> producerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "sextant-admin-commits");
        return config;
    }

    /** Starts the polls on the poller's own thread, the first at once. */
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sextant-admin-commits");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::pollQuietly, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            long now = clock.millis();
            if (Thread.currentThread().isInterrupted()) {
                log.debug("Admin API poll of committed offsets ended by the stop", e);
            } else if (now - lastWarnAt >= WARN_EVERY_MS) {
                lastWarnAt = now;
                log.warn("Cannot read the source's committed offsets through the Admin API now "
                        + "(source.offsets.read=admin; Sextant needs Describe on the groups it syncs); next poll in "
                        + "{} ms: {}", intervalMs, e.toString());
            } else {
                log.debug("Admin API poll of committed offsets failed", e);
            }
        }
    }

    /**
     * One poll, on the calling thread: the poller's, or a test's.
     *
     * @return how many changes were written
     */
    int poll() throws InterruptedException, ExecutionException, TimeoutException {
        Set<Integer> owned = ownedPartitions.get();
        if (partitions <= 0) {
            partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .get(topic).partitions().size();
        }
        polled.forget(group -> !owned.contains(partitionOf(group)));
        if (owned.isEmpty()) {
            return 0;
        }
        Set<String> listed = new HashSet<>();
        for (GroupListing listing : admin.listGroups().all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            String group = listing.groupId();
            if (listing.type().filter(type -> type == GroupType.SHARE).isEmpty() && includeGroup.test(group)
                    && owned.contains(partitionOf(group))) {
                listed.add(group);
            }
        }
        return write(polled.changes(listed, committed(listed)));
    }

    /** The groups' committed offsets, a page of groups per request; a group whose answer failed is left out. */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> committed(Set<String> groups)
            throws InterruptedException {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new HashMap<>();
        List<String> all = new ArrayList<>(groups);
        for (int from = 0; from < all.size(); from += GROUP_PAGE) {
            Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
            all.subList(from, Math.min(all.size(), from + GROUP_PAGE))
                    .forEach(group -> specs.put(group, new ListConsumerGroupOffsetsSpec()));
            // requireStable stays false: the coordinator answers what is committed, leaving out open transactions
            ListConsumerGroupOffsetsResult result = admin.listConsumerGroupOffsets(specs);
            for (String group : specs.keySet()) {
                try {
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    result.partitionsToOffsetAndMetadata(group).get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                            .forEach((tp, om) -> {
                                if (om != null) {
                                    offsets.put(tp, om);
                                }
                            });
                    out.put(group, offsets);
                } catch (ExecutionException | TimeoutException e) {
                    log.debug("Cannot read the committed offsets of group {} now", group, e);
                }
            }
        }
        return out;
    }

    /** Writes the changes, waits for them, and keeps as handed on those the cluster took. */
    private int write(List<PolledCommits.Change> changes) throws InterruptedException {
        if (changes.isEmpty()) {
            return 0;
        }
        long now = clock.millis();
        List<Future<RecordMetadata>> sent = new ArrayList<>(changes.size());
        for (PolledCommits.Change change : changes) {
            TopicPartition tp = change.partition();
            OffsetAndMetadata om = change.committed();
            byte[] value = om == null ? null : OffsetCommitBytes.value(om.offset(),
                    om.leaderEpoch().orElse(-1), om.metadata(), now);
            sent.add(producer.send(new ProducerRecord<>(topic, partitionOf(change.group()), now,
                    OffsetCommitBytes.key(change.group(), tp.topic(), tp.partition()), value)));
        }
        producer.flush();
        int written = 0;
        for (int i = 0; i < changes.size(); i++) {
            if (taken(sent.get(i)).isPresent()) {
                polled.handedOn(changes.get(i));
                written++;
            }
        }
        return written;
    }

    private static Optional<RecordMetadata> taken(Future<RecordMetadata> send) throws InterruptedException {
        try {
            return Optional.of(send.get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException e) {
            log.debug("A commit was not written to the commits topic; the next poll writes it again", e);
            return Optional.empty();
        }
    }

    private int partitionOf(String group) {
        return CoordinatorPartitions.partitionFor(group, partitions);
    }

    /** Ends the polls after the one in progress, and closes the clients. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            running = thread;
            thread = null;
        }
        if (running != null) {
            running.shutdownNow();
            try {
                running.awaitTermination(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        producer.close();
        admin.close();
    }
}
