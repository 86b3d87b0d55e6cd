package dev.sextant.apply;

import dev.sextant.domain.LogRange;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's picture of the destination: its groups (type, state) and the partition counts of the topics
 * Sextant writes to. Every task of the instance reads it; a single refresher keeps it current, so the guards
 * ("never onto an active group, never across types") cost no Admin call per flush.
 *
 * <p>The picture can be a refresh old. That is safe: the write itself fails on an active group or a type conflict,
 * and the applier maps those errors to the same outcomes.
 *
 * <p>Listing the groups costs the destination and this process in proportion to every group the destination has,
 * Sextant's or not: at every refresh, a large destination would keep an Admin thread busy listing. So the groups are
 * listed at most once per {@link #LIST_COST_FACTOR} times what the last listing took (but at least every
 * {@link #MAX_LIST_INTERVAL_MS}), and at every refresh otherwise; topics and both ends of their logs keep the
 * refresh's pace. After a failed refresh, and on {@link #refreshNow()}, they are listed regardless.
 */
public final class DestinationView {

    private static final Logger log = LoggerFactory.getLogger(DestinationView.class);

    private final DestinationClient client;
    private final Set<String> wantedTopics = ConcurrentHashMap.newKeySet();
    private final Set<String> lookedUp = ConcurrentHashMap.newKeySet();
    private CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    private volatile Map<String, DestinationGroup> groups = Map.of();
    private volatile Map<String, Integer> partitionCounts = Map.of();
    /** The ids of the topics looked up, as the last refresh read them: a recreated topic has a new one. */
    private volatile Map<String, Uuid> topicIds = Map.of();
    /** Each known partition's log as the last refresh read it: both ends replaced at once. */
    private volatile Map<TopicPartition, LogRange> logs = Map.of();
    private volatile boolean ready;
    private volatile String lastError;
    /** When refreshes started failing, epoch ms; -1 while the last one succeeded. */
    private volatile long unreachableSince = -1;
    private final Clock clock;

    /** The groups are listed at most once per this many times the last listing's duration (about 5% of the time). */
    static final int LIST_COST_FACTOR = 20;
    /** However slow the listing, the groups are listed again within this long. */
    static final long MAX_LIST_INTERVAL_MS = 30_000;
    /** When the groups may be listed again, epoch ms (0: at the next refresh). */
    private long groupsDueAt; // guarded by this
    /**
     * The brokers' config is read again this often, and after every outage: a retention lowered under the refresh
     * interval in use (an operator's rolling restart) would delete applied offsets before they are written again. One
     * DescribeConfigs request of one broker each time; offsets the retention took before it was read are found gone
     * by {@code VanishedGroups}.
     */
    static final long RETENTION_READ_INTERVAL_MS = 10_000;
    /** When the destination's offsets retention is read again, epoch ms. */
    private long retentionDueAt; // guarded by this
    private volatile long offsetsRetentionMs = -1;
    /** The destination cluster's id as last read (with every refresh), null before. */
    private volatile String clusterId;
    /**
     * How many times refreshes started failing: a cluster id read asked before an outage does not confirm the cluster
     * answering after it (another one may have come up at the same address meanwhile).
     */
    private long outages; // guarded by this
    /** True once the cluster id was read after the last outage (and at start): until then nothing is written. */
    private volatile boolean clusterConfirmed;
    /** A cluster id read that was refused (no permission; a real id is never empty): nothing to pin or hold for. */
    private static final String NOT_ALLOWED = "";
    /** The cluster id Sextant's history pins, null while not pinned. */
    private volatile String pinnedCluster;
    /** When the listing that {@link #groups} holds was started, epoch ms; -1 before the first. */
    private volatile long groupsListedAt = -1;
    /** The destination brokers' Kafka version as the operator states it, for what their protocol cannot tell. */
    private final Optional<String> declaredVersion;
    /** Whether Kafka Streams groups may be written, from the features last read (every 10 s, and after outages). */
    private volatile StreamsGroupSupport streamsGroups = StreamsGroupSupport.UNKNOWN;

    public DestinationView(DestinationClient client) {
        this(client, Clock.systemUTC());
    }

    public DestinationView(DestinationClient client, Clock clock) {
        this(client, clock, Optional.empty());
    }

    /**
     * @param declaredVersion {@code sync.streams.destination.kafka.version}: the destination brokers' Kafka version,
     *                        when the operator states it (empty: told by their features alone)
     */
    public DestinationView(DestinationClient client, Clock clock, Optional<String> declaredVersion) {
        this.client = client;
        this.clock = clock;
        this.declaredVersion = declaredVersion;
    }

    /**
     * Whether a Kafka Streams group (KIP-1071) may be written on the destination, from its features as last read
     * (every 10 s and after every outage): unknown before the first read.
     */
    public StreamsGroupSupport streamsGroups() {
        return streamsGroups;
    }

    /** True while the last refresh succeeded (before the first one: false). */
    public boolean reachable() {
        return ready && unreachableSince < 0;
    }

    /** How long refreshes have been failing, in ms; 0 while the destination answers. */
    public long unreachableForMs() {
        long since = unreachableSince;
        return since < 0 ? 0 : Math.max(0, clock.millis() - since);
    }

    /** True once a refresh has succeeded; before that nothing is applied. */
    public boolean ready() {
        return ready;
    }

    /** The error of the last failed refresh, or null after a success (shown by health checks). */
    public String lastError() {
        return lastError;
    }

    /**
     * The log end offset of a destination partition at the last refresh, or -1 when not known. Approximate by up to
     * one refresh interval: used to count positions applied ahead of the mirror, never to decide anything.
     */
    public long endOffset(String topic, int partition) {
        return logRange(topic, partition).end();
    }

    /**
     * Where a destination partition's log lies at the last refresh ({@link LogRange}: -1 where not known): a write is
     * planned inside it ({@link TranslatedPosition#within}). Both ends are read in the same refresh, so a start
     * never stands for a log the end no longer describes (a recreated topic).
     */
    public LogRange logRange(String topic, int partition) {
        return logs.getOrDefault(new TopicPartition(topic, partition), LogRange.UNKNOWN);
    }

    /**
     * The log end offsets of these destination partitions now (one Admin request, not the cached view); a partition
     * that does not exist is left out. Read-only.
     */
    public CompletableFuture<Map<TopicPartition, Long>> fetchEndOffsets(
            Set<TopicPartition> partitions) {
        return client.endOffsets(partitions);
    }

    /**
     * The destination's {@code offsets.retention.minutes} in ms, as last read from a broker's config (at the first
     * refresh, then every 10 s and after every outage), or -1 when it could not be read.
     */
    public long offsetsRetentionMs() {
        return offsetsRetentionMs;
    }

    /** The ids of these destination topics now (one Admin request); absent ones left out. */
    public CompletableFuture<Map<String, Uuid>> fetchTopicIds(Set<String> topics) {
        return client.topicIds(topics);
    }

    /** The log start offsets of these destination partitions now (one Admin request); absent ones left out. */
    public CompletableFuture<Map<TopicPartition, Long>> fetchStartOffsets(Set<TopicPartition> partitions) {
        return client.startOffsets(partitions);
    }

    /**
     * When the listing {@link #group} answers from was started, epoch ms; -1 before the first. A group written (and
     * answered) before then and absent from it is gone from the destination: its offsets expired or were deleted.
     */
    public long groupsListedAt() {
        return groupsListedAt;
    }

    public Optional<DestinationGroup> group(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    /** The topic's id as the last refresh read it; empty when not looked up or absent. */
    public Optional<Uuid> topicId(String topic) {
        return Optional.ofNullable(topicIds.get(topic));
    }

    /** What the view knows of a destination partition. */
    public enum PartitionPresence {
        PRESENT,
        ABSENT,
        /** The topic was never looked up; it will be at the next refresh. */
        UNKNOWN
    }

    /**
     * Whether the destination has this partition. Topics are looked up the first time they are asked for and then
     * at every refresh, so a topic that MirrorMaker 2 creates later is picked up without a restart.
     */
    public PartitionPresence partition(String topic, int partition) {
        Integer count = partitionCounts.get(topic);
        if (count != null && partition < count) {
            return PartitionPresence.PRESENT;
        }
        boolean known = lookedUp.contains(topic);
        wantedTopics.add(topic);
        return known ? PartitionPresence.ABSENT : PartitionPresence.UNKNOWN;
    }

    /**
     * Starts a refresh unless one is running; returns immediately. Called by a timer; tests call
     * {@link #refreshNow()}.
     */
    public CompletableFuture<Void> refresh() {
        return refresh(false);
    }

    private synchronized CompletableFuture<Void> refresh(boolean listGroups) {
        if (!inFlight.isDone()) {
            // the running one may skip the groups: a caller that wants them waits for it, then refreshes again
            return listGroups ? inFlight.thenCompose(v -> refresh(true)) : inFlight;
        }
        Set<String> topics = new HashSet<>(wantedTopics);
        topics.addAll(partitionCounts.keySet());
        long startedAt = clock.millis();
        long outagesAtStart = outages;
        CompletableFuture<String> clusterRead = readClusterId();
        boolean listing = listGroups || startedAt >= groupsDueAt;
        if (startedAt >= retentionDueAt) {
            retentionDueAt = startedAt + RETENTION_READ_INTERVAL_MS;
            readFeaturesAndRetention();
        }
        CompletableFuture<Map<String, DestinationGroup>> listed = listing
                ? client.listGroups().thenApply(g -> {
                    long took = Math.max(0, clock.millis() - startedAt);
                    synchronized (this) {
                        groupsDueAt = startedAt + Math.min(MAX_LIST_INTERVAL_MS, took * LIST_COST_FACTOR);
                    }
                    return g;
                })
                : CompletableFuture.completedFuture(groups);
        // one description per topic: its partitions and its id (a re-seeded mirror has a new one)
        CompletableFuture<Map<String, Integer>> counted = client.topics(topics).thenApply(described -> {
            Map<String, Integer> counts = new HashMap<>();
            Map<String, Uuid> ids = new HashMap<>();
            described.forEach((topic, d) -> {
                counts.put(topic, d.partitions());
                ids.put(topic, d.id());
            });
            topicIds = Map.copyOf(ids);
            return counts;
        });
        inFlight = listed
                .thenCombine(clusterRead, (g, seen) -> {
                    clusterIdRead(seen, outagesAtStart);
                    return g;
                })
                .thenCombine(counted, (g, counts) -> {
                    groups = g;
                    if (listing) {
                        groupsListedAt = startedAt;
                    }
                    Map<String, Integer> merged = new HashMap<>(counts);
                    partitionCounts = Map.copyOf(merged);
                    lookedUp.addAll(topics);
                    wantedTopics.removeAll(merged.keySet());
                    ready = true;
                    lastError = null;
                    unreachableSince = -1;
                    return merged;
                })
                .thenCompose(counts -> {
                    Set<TopicPartition> partitions = new HashSet<>();
                    counts.forEach((topic, n) -> {
                        for (int p = 0; p < n; p++) {
                            partitions.add(new TopicPartition(topic, p));
                        }
                    });
                    // both ends in one round, one request each: a start is only used beside the end read with it
                    return client.endOffsets(partitions).thenCombine(client.startOffsets(partitions),
                            (ends, starts) -> {
                                Map<TopicPartition, LogRange> read = new HashMap<>();
                                ends.forEach((tp, end) -> read.put(tp, new LogRange(starts.getOrDefault(tp, -1L),
                                        end)));
                                logs = read;
                                return (Void) null;
                            });
                })
                .exceptionally(err -> {
                    lastError = KafkaFutures.unwrap(err).toString();
                    synchronized (this) {
                        // the next answer may come from a destination that changed meanwhile (restarted with
                        // another retention, or replaced): everything is read again then, and nothing is written
                        // before its cluster id is
                        groupsDueAt = 0;
                        retentionDueAt = 0;
                        if (unreachableSince < 0) {
                            outages++;
                        }
                        clusterConfirmed = false;
                    }
                    if (unreachableSince < 0) {
                        unreachableSince = startedAt; // it did not answer from then on
                    }
                    log.warn("Cannot refresh the destination's groups and topics: {}", lastError);
                    return null;
                });
        return inFlight;
    }

    /**
     * True once the destination's cluster id was read after its last outage (and after start): the flush writes
     * nothing before, since a cluster rebuilt at the same address meanwhile is only told apart by its id.
     */
    public boolean clusterConfirmed() {
        return clusterConfirmed;
    }

    /** The destination cluster's id as last read (with every refresh); empty before the first read. */
    public Optional<String> clusterId() {
        return Optional.ofNullable(clusterId);
    }

    /** The cluster id Sextant's history pins (the cluster it wrote to so far). */
    public void pin(String cluster) {
        pinnedCluster = cluster;
    }

    /**
     * Why nothing may be written: the destination answering at the configured address is not the cluster Sextant's
     * history pins (rebuilt, or another one behind the same name); empty while it is, or while either is not known.
     * An operator accepts the new cluster with {@code sextant rebaseline --apply}.
     */
    public Optional<String> clusterChange() {
        String seen = clusterId;
        String pinned = pinnedCluster;
        if (seen == null || pinned == null || seen.equals(pinned)) {
            return Optional.empty();
        }
        return Optional.of("the destination is cluster " + seen + ", not the cluster " + pinned + " Sextant wrote to "
                + "(rebuilt, or another cluster behind destination.bootstrap.servers): nothing is written until an "
                + "operator accepts it with 'sextant rebaseline --apply'");
    }

    /** A call of the client, whose throwing is a failed answer as any other. */
    private static <T> CompletableFuture<T> asked(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Reads the cluster's features and the brokers' offsets retention: a refusal (no permission) is no outage. */
    private void readFeaturesAndRetention() {
        readFeatures();
        readOffsetsRetention();
    }

    /**
     * The cluster id, read with every refresh: a cluster rebuilt at the same address may answer a refresh that
     * started before it (the Admin client retries), and must be told apart before anything is planned from that
     * answer. A failed read is null: the cluster is then not confirmed, and read again at the next refresh.
     */
    private CompletableFuture<String> readClusterId() {
        CompletableFuture<String> id = asked(client::clusterId);
        return id.handle((seen, err) -> {
            if (err != null && KafkaFutures.unwrap(err) instanceof AuthorizationException) {
                // not allowed to know it: nothing can be pinned, and nothing held for it (as before the pin)
                return NOT_ALLOWED;
            }
            return seen;
        });
    }

    /** What a refresh read of the cluster id says; {@code asOf} the outages counted when the refresh started. */
    private synchronized void clusterIdRead(String seen, long asOf) {
        if (seen == null || asOf != outages) {
            clusterConfirmed = false; // not read, or asked before an outage: says nothing of the cluster after it
            return;
        }
        if (!seen.equals(NOT_ALLOWED) && !seen.equals(clusterId)) {
            if (clusterId != null) {
                log.warn("The destination's cluster id changed from {} to {}", clusterId, seen);
            }
            clusterId = seen;
        }
        clusterConfirmed = true;
    }

    private void readFeatures() {
        CompletableFuture<DestinationFeatures> features = asked(client::features);
        features.whenComplete((read, err) -> {
            if (read != null) {
                StreamsGroupSupport support = StreamsGroupSupport.of(read, declaredVersion);
                if (support.refused() && !streamsGroups.refused()) {
                    log.warn("Kafka Streams groups are not written on the destination: {}", support.detail());
                }
                streamsGroups = support;
            }
        });
    }

    private void readOffsetsRetention() {
        CompletableFuture<Long> read = asked(client::offsetsRetentionMs);
        read.whenComplete((ms, err) -> {
            if (ms != null && ms > 0) {
                if (ms != offsetsRetentionMs) {
                    log.info("The destination keeps the offsets of a group without members {} min after their "
                            + "commit (offsets.retention.minutes)", ms / 60_000);
                }
                offsetsRetentionMs = ms;
            } else if (err != null) {
                log.info("Cannot read the destination's offsets.retention.minutes ({}); applied offsets are written "
                        + "again as if it were the broker default of 7 days, unless sync.offsets.refresh.ms says "
                        + "otherwise", KafkaFutures.unwrap(err).toString());
            }
        });
    }

    /** Refreshes, groups included, and waits for the result. */
    public void refreshNow() {
        refresh(true).join();
    }
}
