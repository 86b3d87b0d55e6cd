package dev.sextant.apply;

import static dev.sextant.apply.KafkaFutures.toCompletable;
import static dev.sextant.apply.KafkaFutures.unwrap;

import dev.sextant.clients.ClusterIds;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.DescribeFeaturesOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SupportedVersionRange;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * {@link DestinationClient} over the Kafka Admin API.
 *
 * <p>A Kafka Admin client has one request in flight per broker, and every group's offset write is its own request
 * to the group's coordinator. Writes therefore go through Admin clients of their own ({@code writers}), one write per
 * writer at a time, as many at once as a {@link WriteConcurrencyLimit} allows: more while the destination answers as
 * fast as it does unloaded, fewer when it slows or times out, at most {@code maxWrites}. Writes beyond the limit wait
 * in a queue here ({@link WriteDispatcher}); the caller's thread never blocks. A write takes whichever writer is idle:
 * that is safe because the caller keeps at most one write per group in flight, so two writes of a group never race
 * through two clients. Reads (groups, topics, end offsets, offsets to check) go through the main client.
 */
public final class AdminDestinationClient implements DestinationClient {

    /** How long a read of the destination's groups, topics or log ends may take: past it, it counts as unreachable. */
    static final int READ_TIMEOUT_MS = 10_000;
    /** Clients the reads before writes take turns on (with {@code sync.write.parallelism} 1: the main client). */
    static final int PLAN_READERS = 4;

    private final Admin admin;
    /**
     * The takeover audit's reads (every applied partition of a task, every few seconds after an assignment): on a
     * client of their own, because a client has one request in flight per broker, and the reads that precede each
     * write must not wait behind a read of every applied partition.
     */
    private final Admin auditor;
    /**
     * The reads writes are planned on (every partition of the groups a task's flush planned), on clients of their
     * own, taken in turn: a client has one request in flight per broker, and on the main client these reads waited
     * behind each other and behind the listing of every destination group, and the writers idled.
     */
    private final List<Admin> planReaders;
    private final AtomicInteger nextPlanReader = new AtomicInteger();
    private final WriteConcurrencyLimit limit;
    private final WriteDispatcher<Admin> dispatcher;
    // the writers created so far, not the main client when it writes itself (maxWrites 1)
    private final List<Admin> writers = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> binders = new CopyOnWriteArrayList<>();
    private MeterRegistry registry; // guarded by this
    private boolean closed; // guarded by this

    public AdminDestinationClient(Map<String, Object> clientConfig) {
        this(clientConfig, 1);
    }

    /**
     * @param maxWrites the most offset writes in flight ({@code sync.write.parallelism}), each through an Admin client
     *                  of its own, created when first needed (1: the main client writes too)
     */
    public AdminDestinationClient(Map<String, Object> clientConfig, int maxWrites) {
        this.admin = Admin.create(clientConfig);
        this.auditor = Admin.create(withClientIdSuffix(clientConfig, "-auditor"));
        this.planReaders = maxWrites == 1 ? List.of(admin) : IntStream.range(0, PLAN_READERS)
                .mapToObj(i -> Admin.create(withClientIdSuffix(clientConfig, "-reader-" + i))).toList();
        this.limit = new WriteConcurrencyLimit(maxWrites, System::nanoTime);
        this.dispatcher = new WriteDispatcher<>(limit,
                maxWrites == 1 ? () -> admin : () -> newWriter(clientConfig),
                AdminDestinationClient::loadSignal);
    }

    public AdminDestinationClient(Admin admin) {
        this.admin = admin;
        this.auditor = admin;
        this.planReaders = List.of(admin);
        this.limit = new WriteConcurrencyLimit(1, System::nanoTime);
        this.dispatcher = new WriteDispatcher<>(limit, () -> admin, AdminDestinationClient::loadSignal);
    }

    private static Map<String, Object> withClientIdSuffix(Map<String, Object> clientConfig, String suffix) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        Object id = clientConfig.get(AdminClientConfig.CLIENT_ID_CONFIG);
        if (id != null && !id.toString().isEmpty()) {
            config.put(AdminClientConfig.CLIENT_ID_CONFIG, id + suffix);
        }
        return config;
    }

    /** Called by one thread at a time (the dispatcher's), so writers are numbered in turn. */
    private Admin newWriter(Map<String, Object> clientConfig) {
        Admin writer = Admin.create(withClientIdSuffix(clientConfig, "-writer-" + writers.size()));
        synchronized (this) {
            if (closed) {
                // made while close() took its list of writers to close: nobody else would close this one
                writer.close(Duration.ZERO);
                throw new IllegalStateException("the destination client closed before the write was sent");
            }
            // with bindMetrics' snapshot under the same lock: each writer bound once, whichever comes first
            writers.add(writer);
            bind(writer);
        }
        return writer;
    }

    /**
     * Binds the Admin clients' own metrics (requests, latency, connections), tagged with their client ids; writers
     * created later are bound as they are created.
     */
    public synchronized void bindMetrics(MeterRegistry registry) {
        this.registry = registry;
        Set<Admin> all = new LinkedHashSet<>(writers);
        all.add(admin);
        all.add(auditor);
        all.addAll(planReaders);
        for (Admin client : all) {
            bind(client);
        }
    }

    private synchronized void bind(Admin client) {
        if (registry == null || !(client instanceof AdminClient adminClient)) {
            return; // not bound (yet), or a test double
        }
        var binder = new KafkaClientMetrics(adminClient);
        binder.bindTo(registry);
        binders.add(binder);
    }

    /** How many offset writes may be in flight now ({@link WriteConcurrencyLimit#limit()}). */
    public int writeLimit() {
        return limit.limit();
    }

    /** Offset writes sent and not answered yet. */
    public int writesInFlight() {
        return limit.inFlight();
    }

    /** Offset writes waiting for the limit. */
    public int writesQueued() {
        return dispatcher.queued();
    }

    /**
     * What a failed write says about the destination's load. Refusals about the group or its partitions (active,
     * another type, not authorized, topic missing) are answers like any other; timeouts, disconnects and other
     * transient errors are how a destination that does not keep up shows.
     */
    static WriteConcurrencyLimit.Outcome loadSignal(Throwable failure) {
        Throwable err = unwrap(failure);
        if (err instanceof UnknownTopicOrPartitionException || err instanceof AuthorizationException) {
            return WriteConcurrencyLimit.Outcome.NEUTRAL; // retriable in Kafka's terms, yet an answer about the write
        }
        return err instanceof RetriableException
                ? WriteConcurrencyLimit.Outcome.CONGESTED
                : WriteConcurrencyLimit.Outcome.NEUTRAL;
    }

    @Override
    public CompletableFuture<Map<String, DestinationGroup>> listGroups() {
        // bounded well below Admin's default 60 s: a destination that hangs must show as unreachable soon
        return toCompletable(admin.listGroups(new ListGroupsOptions().timeoutMs(READ_TIMEOUT_MS)).all())
                .thenApply(GroupListings::toGroups);
    }

    @Override
    public CompletableFuture<String> clusterId() {
        return toCompletable(ClusterIds.describe(admin, READ_TIMEOUT_MS));
    }

    @Override
    public CompletableFuture<DestinationFeatures> features() {
        return toCompletable(admin.describeFeatures(new DescribeFeaturesOptions().timeoutMs(READ_TIMEOUT_MS))
                .featureMetadata()).thenApply(f -> {
                    FinalizedVersionRange streams = f.finalizedFeatures().get("streams.version");
                    SupportedVersionRange metadata = f.supportedFeatures().get("metadata.version");
                    return new DestinationFeatures(streams == null ? 0 : streams.maxVersionLevel(),
                            metadata == null ? 0 : metadata.maxVersion());
                });
    }

    @Override
    public CompletableFuture<Map<String, DestinationTopic>> topics(Set<String> topics) {
        return described(topics, desc -> new DestinationTopic(desc.partitions().size(), desc.topicId()));
    }

    /** What {@code of} takes from the description of each named topic that exists. */
    private <T> CompletableFuture<Map<String, T>> described(Set<String> topics, Function<TopicDescription, T> of) {
        if (topics.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics,
                new DescribeTopicsOptions().timeoutMs(READ_TIMEOUT_MS)).topicNameValues();
        Map<String, T> counts = new ConcurrentHashMap<>();
        CompletableFuture<?>[] all = futures.entrySet().stream()
                .map(e -> toCompletable(e.getValue())
                        .handle((desc, err) -> {
                            if (desc != null) {
                                counts.put(e.getKey(), of.apply(desc));
                            } else if (!(unwrap(err) instanceof UnknownTopicOrPartitionException)) {
                                throw new CompletionException(unwrap(err));
                            }
                            return null;
                        }))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(all).thenApply(v -> Map.copyOf(counts));
    }

    @Override
    public CompletableFuture<Long> offsetsRetentionMs() {
        return OffsetsRetention.read(admin, READ_TIMEOUT_MS);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> endOffsets(Set<TopicPartition> partitions) {
        return listOffsets(partitions, OffsetSpec.latest());
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Long>> startOffsets(Set<TopicPartition> partitions) {
        return listOffsets(partitions, OffsetSpec.earliest());
    }

    private CompletableFuture<Map<TopicPartition, Long>> listOffsets(Set<TopicPartition> partitions, OffsetSpec spec) {
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        var result = admin.listOffsets(partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> spec)),
                new ListOffsetsOptions().timeoutMs(READ_TIMEOUT_MS));
        Map<TopicPartition, Long> offsets = new ConcurrentHashMap<>();
        CompletableFuture<?>[] each = partitions.stream().map(tp -> toCompletable(result.partitionResult(tp))
                .handle((info, err) -> {
                    if (info != null) {
                        offsets.put(tp, info.offset());
                    }
                    return null; // a partition that vanished: left out
                })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(each).thenApply(v -> Map.copyOf(offsets));
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> consumerGroupOffsets(
            Set<String> groups) {
        Map<String, Set<TopicPartition>> whole = new HashMap<>();
        groups.forEach(g -> whole.put(g, null)); // no partitions named: all of the group's
        Admin reader = planReaders.get(Math.floorMod(nextPlanReader.getAndIncrement(), planReaders.size()));
        return GroupOffsetReads.committed(reader, whole);
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> auditGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        return GroupOffsetReads.committed(auditor, partitionsByGroup);
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> shareGroupStarts(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        Admin reader = planReaders.get(Math.floorMod(nextPlanReader.getAndIncrement(), planReaders.size()));
        return GroupOffsetReads.shareStartsAndLags(reader, partitionsByGroup);
    }

    @Override
    public Map<String, CompletableFuture<Map<TopicPartition, Long>>> auditShareGroupOffsets(
            Map<String, Set<TopicPartition>> partitionsByGroup) {
        return GroupOffsetReads.shareStarts(auditor, partitionsByGroup);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> offsets, WriteLease lease) {
        return dispatcher.submit(lease, writer -> {
            AlterConsumerGroupOffsetsResult result = writer.alterConsumerGroupOffsets(group, offsets);
            return PartitionResults.collect(offsets.keySet(), tp -> toCompletable(result.partitionResult(tp)));
        });
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterConsumerGroupOffsets(
            String group, Map<TopicPartition, OffsetAndMetadata> offsets, WriteLease lease,
            Map<TopicPartition, OffsetAndMetadata> readBefore) {
        long readAt = System.nanoTime(); // the read's answer came just before: the applier writes on it at once
        return dispatcher.submit(lease, writer -> FreshRead.send(
                (System.nanoTime() - readAt) / 1_000_000, group, readBefore,
                () -> GroupOffsetReads.committed(writer, Collections.singletonMap(group, null)).get(group),
                () -> {
                    AlterConsumerGroupOffsetsResult result = writer.alterConsumerGroupOffsets(group, offsets);
                    return PartitionResults.collect(offsets.keySet(), tp -> toCompletable(result.partitionResult(tp)));
                }));
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Throwable>> alterShareGroupOffsets(
            String group, Map<TopicPartition, Long> offsets, WriteLease lease) {
        return dispatcher.submit(lease, writer -> {
            var result = writer.alterShareGroupOffsets(group, offsets);
            return PartitionResults.collect(offsets.keySet(), tp -> toCompletable(result.partitionResult(tp)));
        });
    }

    @Override
    public void close() {
        for (AutoCloseable binder : binders) {
            try {
                binder.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
        // writes still queued, then those in flight when their writers close, are given up (their positions stay
        // pending in the changelogged store, for whichever instance owns them next); every future completes
        dispatcher.close();
        List<Admin> toClose;
        synchronized (this) {
            closed = true;
            toClose = List.copyOf(writers);
        }
        // all at once, within 5 s
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Admin writer : toClose) {
            closing.add(CompletableFuture.runAsync(() -> writer.close(Duration.ofSeconds(5))));
        }
        if (auditor != admin) {
            closing.add(CompletableFuture.runAsync(() -> auditor.close(Duration.ofSeconds(5))));
        }
        for (Admin reader : planReaders) {
            if (reader != admin) {
                closing.add(CompletableFuture.runAsync(() -> reader.close(Duration.ofSeconds(5))));
            }
        }
        admin.close(Duration.ofSeconds(5));
        closing.forEach(CompletableFuture::join);
    }
}
