package dev.sextant.apply;

import dev.sextant.domain.LogRange;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
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
 * <p>A refresh reads, each through the part that keeps what it answers: which cluster answers
 * ({@link DestinationIdentity}, every refresh), the groups ({@link ListedGroups}, paced by what listing them costs),
 * the topics ({@link DescribedTopics}) and both ends of their logs ({@link PartitionLogs}), at every refresh; the
 * brokers' features and offsets retention ({@link DestinationSettings}, every 10 s). After a failed refresh all of
 * them are read at the next one; on {@link #refreshNow()} the groups are listed regardless. One refresh runs at a
 * time: a caller meanwhile shares the running one.
 *
 * <p>Thread safety, here and in those parts: every field that changes is volatile and holds an immutable value (a
 * record, an unmodifiable collection, a completed or pending future), replaced whole and never changed in place, and
 * only under the monitor of the object that owns it. Readers (every stream thread, the health checks) take no lock
 * and see each value whole; a read-modify-write (an outage counted, a due time moved, a topic asked for) cannot lose
 * another's. No monitor is held across a call to the destination, and none is taken inside another.
 */
public final class DestinationView {

    private static final Logger log = LoggerFactory.getLogger(DestinationView.class);

    /**
     * What the refreshes said so far.
     *
     * @param ready            true once a refresh has succeeded
     * @param lastError        the error of the last failed refresh, null after a success
     * @param unreachableSince when refreshes started failing, epoch ms; -1 while the last one succeeded
     */
    private record Reachability(boolean ready, String lastError, long unreachableSince) {
    }

    private final DestinationClient client;
    private final Clock clock;
    private final DestinationIdentity identity;
    private final ListedGroups groups;
    private final DescribedTopics topics;
    private final PartitionLogs logs;
    private final DestinationSettings settings;
    private volatile Reachability reachability = new Reachability(false, null, -1);
    /** The refresh running, or the last one (done). */
    private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

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
        this.identity = new DestinationIdentity(client);
        this.groups = new ListedGroups(client, clock);
        this.topics = new DescribedTopics(client);
        this.logs = new PartitionLogs(client);
        this.settings = new DestinationSettings(client, declaredVersion);
    }

    /**
     * Whether a Kafka Streams group (KIP-1071) may be written on the destination, from its features as last read
     * (every 10 s and after every outage): unknown before the first read.
     */
    public StreamsGroupSupport streamsGroups() {
        return settings.streamsGroups();
    }

    /** True while the last refresh succeeded (before the first one: false). */
    public boolean reachable() {
        Reachability now = reachability;
        return now.ready() && now.unreachableSince() < 0;
    }

    /** How long refreshes have been failing, in ms; 0 while the destination answers. */
    public long unreachableForMs() {
        long since = reachability.unreachableSince();
        return since < 0 ? 0 : Math.max(0, clock.millis() - since);
    }

    /** True once a refresh has succeeded; before that nothing is applied. */
    public boolean ready() {
        return reachability.ready();
    }

    /** The error of the last failed refresh, or null after a success (shown by health checks). */
    public String lastError() {
        return reachability.lastError();
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
        return logs.of(topic, partition);
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
        return settings.offsetsRetentionMs();
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
        return groups.listedAt();
    }

    public Optional<DestinationGroup> group(String groupId) {
        return groups.group(groupId);
    }

    /** The topic's id as the last refresh read it; empty when not looked up or absent. */
    public Optional<Uuid> topicId(String topic) {
        return topics.id(topic);
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
        return topics.presence(topic, partition);
    }

    /**
     * Starts a refresh unless one is running; returns immediately. Called by a timer; tests call
     * {@link #refreshNow()}.
     */
    public CompletableFuture<Void> refresh() {
        return refresh(false);
    }

    private CompletableFuture<Void> refresh(boolean listGroups) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> running = claim(mine);
        if (running != mine) {
            // the running one may skip the groups: a caller that wants them waits for it, then refreshes again
            return listGroups ? running.thenCompose(v -> refresh(true)) : running;
        }
        try {
            readAll(listGroups).whenComplete((v, err) -> mine.complete(null));
        } catch (RuntimeException e) {
            mine.complete(null); // a client that throws instead of failing its answer: the next refresh may start
            throw e;
        }
        return mine;
    }

    /** The refresh in flight from now on: {@code mine} unless another one is still running (that one then). */
    private synchronized CompletableFuture<Void> claim(CompletableFuture<Void> mine) {
        if (inFlight.isDone()) {
            inFlight = mine;
        }
        return inFlight;
    }

    /**
     * One refresh: the cluster id, the groups and the topics read at once, then both ends of the topics' logs. The
     * groups and topics are kept together once all three answered; a failure of any read is the refresh's.
     */
    private CompletableFuture<Void> readAll(boolean listGroups) {
        Set<String> described = topics.toDescribe();
        long startedAt = clock.millis();
        long outagesAtStart = identity.outages();
        CompletableFuture<String> clusterRead = identity.read();
        settings.readIfDue(startedAt);
        CompletableFuture<ListedGroups.Listing> listed = groups.listing(startedAt, listGroups);
        CompletableFuture<Map<String, Integer>> counted = topics.describe(described);
        return listed
                .thenCombine(clusterRead, (listing, seen) -> {
                    identity.read(seen, outagesAtStart);
                    return listing;
                })
                .thenCombine(counted, (listing, counts) -> {
                    groups.publish(listing);
                    topics.described(described, counts);
                    answered();
                    return counts;
                })
                .thenCompose(logs::read)
                .exceptionally(err -> {
                    unanswered(KafkaFutures.unwrap(err).toString(), startedAt);
                    return null;
                });
    }

    private synchronized void answered() {
        reachability = new Reachability(true, null, -1);
    }

    /** A failed refresh started at {@code startedAt}. */
    private void unanswered(String error, long startedAt) {
        // only the refresh in flight writes it: nothing changes it before the write below
        boolean outageBegins = reachability.unreachableSince() < 0;
        // the next answer may come from a destination that changed meanwhile (restarted with another retention, or
        // replaced): everything is read again then, and nothing is written before its cluster id is
        groups.listAtNextRefresh();
        settings.readAtNextRefresh();
        identity.unanswered(outageBegins);
        failedSince(error, startedAt); // it did not answer from then on, unless it already had not
        log.warn("Cannot refresh the destination's groups and topics: {}", error);
    }

    private synchronized void failedSince(String error, long startedAt) {
        Reachability was = reachability;
        reachability = new Reachability(was.ready(), error,
                was.unreachableSince() < 0 ? startedAt : was.unreachableSince());
    }

    /**
     * True once the destination's cluster id was read after its last outage (and after start): the flush writes
     * nothing before, since a cluster rebuilt at the same address meanwhile is only told apart by its id.
     */
    public boolean clusterConfirmed() {
        return identity.confirmed();
    }

    /** The destination cluster's id as last read (with every refresh); empty before the first read. */
    public Optional<String> clusterId() {
        return identity.clusterId();
    }

    /**
     * The ids the destination is known by: as last read and as pinned by the history; empty before either is known.
     * What tells the reverse direction's writes on the source ({@link ChainedWrites}).
     */
    public Set<String> clusterIds() {
        return identity.knownIds();
    }

    /** The cluster id Sextant's history pins (the cluster it wrote to so far). */
    public void pin(String cluster) {
        identity.pin(cluster);
    }

    /**
     * Why nothing may be written: the destination answering at the configured address is not the cluster Sextant's
     * history pins (rebuilt, or another one behind the same name); empty while it is, or while either is not known.
     * An operator accepts the new cluster with {@code sextant rebaseline --apply}.
     */
    public Optional<String> clusterChange() {
        return identity.change();
    }

    /** Refreshes, groups included, and waits for the result. */
    public void refreshNow() {
        refresh(true).join();
    }
}
