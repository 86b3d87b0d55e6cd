package dev.sextant.apply;

import dev.sextant.acl.AccessDenials;
import dev.sextant.domain.LogRange;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A command's session with the destination ({@code failover}, {@code adopt}, and every later command that writes):
 * the reads it judges on, the planning of its translations into writes inside the mirror partitions' logs
 * ({@link TranslatedPosition#within}, as the sync plans), and the writes themselves through the sync's appliers and
 * their guards. Every call waits for its answer, at most the command's timeout: one place for the waiting, so no
 * command blocks without a bound, and none writes around the guards or past a log end.
 *
 * <p>Invariant: what {@link #write} sends was planned by {@link #plan}, with both ends of each partition's log read
 * in this session.
 */
public final class DestinationSession implements AutoCloseable {

    /** The most one request may take, whatever the command's timeout: Admin retries within the call's timeout. */
    private static final int MAX_REQUEST_TIMEOUT_MS = 30_000;

    private final DestinationClient client;
    private final Duration timeout;
    private final OffsetOwnership ownership;
    private final ConsumerGroupApplier consumers;
    private final GroupApplier shares;

    /**
     * @param ownership     the mark Sextant writes and recognizes ({@code application.id})
     * @param followRewinds {@code sync.rewind=follow-source}
     * @param adoptForward  take over offsets Sextant did not write where the translation is at or above them
     */
    public DestinationSession(DestinationClient client, Duration timeout, OffsetOwnership ownership,
                              boolean followRewinds, boolean adoptForward) {
        this.ownership = ownership;
        this.client = client;
        this.timeout = timeout;
        OverwritePolicy overwrites = new OverwritePolicy(followRewinds, adoptForward);
        AccessDenials denials = new AccessDenials(Clock.systemUTC());
        this.consumers = new ConsumerGroupApplier(client, ownership, overwrites, denials);
        this.shares = new ShareGroupApplier(client, overwrites, denials);
    }

    /** A session over its own Admin client of the destination, whose calls end within {@code timeout}. */
    public static DestinationSession open(Map<String, Object> clientConfig, Duration timeout,
                                          OffsetOwnership ownership, boolean followRewinds, boolean adoptForward) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, MAX_REQUEST_TIMEOUT_MS));
        return new DestinationSession(new AdminDestinationClient(config), timeout, ownership, followRewinds,
                adoptForward);
    }

    /** The mark this session writes and recognizes. */
    public OffsetOwnership ownership() {
        return ownership;
    }

    /** True when {@code metadata} of a destination offset is the mark of this session's Sextant. */
    public boolean owns(String metadata) {
        return ownership.owns(metadata);
    }

    /** Every group of the destination, with its type and state. */
    public Map<String, DestinationGroup> groups() {
        return await(client.listGroups(), "listing the destination's groups");
    }

    /** Every committed offset of these consumer groups, in one batched read; a group without any maps to none. */
    public Map<String, Map<TopicPartition, OffsetAndMetadata>> consumerOffsets(Set<String> groups) {
        return awaitEach(groups.isEmpty() ? Map.of() : client.consumerGroupOffsets(groups), "reading the offsets of ");
    }

    /** Every share-partition start offset of these share groups, in one batched read. */
    public Map<String, Map<TopicPartition, Long>> shareOffsets(Set<String> groups) {
        return awaitEach(groups.isEmpty() ? Map.of() : client.shareGroupOffsets(groups),
                "reading the start offsets of ");
    }

    /** The ids of these destination topics now: a topic created again has a new one; absent ones are left out. */
    public Map<String, Uuid> topicIds(Set<String> topics) {
        return topics.isEmpty() ? Map.of() : await(client.topicIds(topics), "reading the destination's topic ids");
    }

    /**
     * Where the logs of these destination partitions lie now; a partition the destination does not have is left
     * out.
     */
    public Map<TopicPartition, LogRange> logRanges(Set<TopicPartition> partitions) {
        Set<String> topics = new HashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        Map<String, Integer> counts = await(client.partitionCounts(topics), "describing the destination's topics");
        Set<TopicPartition> present = new HashSet<>();
        partitions.stream().filter(tp -> tp.partition() < counts.getOrDefault(tp.topic(), 0)).forEach(present::add);
        CompletableFuture<Map<TopicPartition, Long>> startsRead = client.startOffsets(present); // both at once
        CompletableFuture<Map<TopicPartition, Long>> endsRead = client.endOffsets(present);
        Map<TopicPartition, Long> starts = await(startsRead, "reading the destination's log starts");
        Map<TopicPartition, Long> ends = await(endsRead, "reading the destination's log ends");
        Map<TopicPartition, LogRange> logs = new HashMap<>();
        ends.forEach((tp, end) -> logs.put(tp, new LogRange(starts.getOrDefault(tp, -1L), end)));
        return logs;
    }

    /**
     * The writes of these translations, each inside its destination partition's log as read now. A partition the
     * destination lacks is planned as translated: the write is refused there ({@code TOPIC_NOT_MIRRORED}).
     */
    public Map<String, List<PlannedPartition>> plan(Map<String, List<TranslatedPosition>> translations) {
        Set<TopicPartition> partitions = new HashSet<>();
        translations.values().forEach(l -> l.forEach(t -> partitions.add(t.destination())));
        Map<TopicPartition, LogRange> logs = partitions.isEmpty() ? Map.of() : logRanges(partitions);
        Map<String, List<PlannedPartition>> plans = new HashMap<>();
        translations.forEach((group, list) -> plans.put(group, list.stream()
                .map(t -> t.within(logs.getOrDefault(t.destination(), LogRange.UNKNOWN))).toList()));
        return plans;
    }

    /**
     * Writes the plans, one phase per group type, through the appliers and their guards, and waits for the
     * answers up to the timeout. A group missing from the result was not answered in time: its write may still
     * land.
     */
    public Map<String, GroupOutcome> write(Map<String, List<PlannedPartition>> consumerPlans,
                                           Map<String, List<PlannedPartition>> sharePlans) {
        Map<String, GroupOutcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(consumerPlans.size() + sharePlans.size());
        Consumer<GroupOutcome> collect = outcome -> {
            outcomes.put(outcome.group(), outcome);
            done.countDown();
        };
        if (!consumerPlans.isEmpty()) {
            consumers.apply(consumerPlans, collect);
        }
        if (!sharePlans.isEmpty()) {
            shares.apply(sharePlans, collect);
        }
        try {
            done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Map.copyOf(outcomes);
    }

    /**
     * The partitions of a group whose offsets carry Sextant's marks of another source cluster than this session's:
     * what {@link #releaseMarks} rewrites. Empty when the session does not know the source.
     */
    public Map<TopicPartition, OffsetOwnership.Mark> marksOfAnotherSource(
            Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicPartition, OffsetOwnership.Mark> marks = new HashMap<>();
        offsets.forEach((tp, om) -> ownership.mark(om.metadata()).filter(ownership::fromAnotherSource)
                .ifPresent(m -> marks.put(tp, m)));
        return marks;
    }

    /**
     * Rewrites, in place, the offsets of a group whose marks name another source cluster: the same offsets under a
     * released mark ({@link OffsetOwnership#released}), which the next commit of this source replaces. Only the
     * offsets as read ({@code readBefore}) are rewritten: the write fails, nothing changed, when they moved meanwhile
     * or the group has members.
     *
     * @return per partition the error, or null when rewritten
     * @throws IllegalStateException when the destination does not answer within the timeout
     */
    public Map<TopicPartition, Throwable> releaseMarks(String group,
                                                       Map<TopicPartition, OffsetAndMetadata> readBefore) {
        return await(consumers.releaseMarks(group, readBefore), "releasing the marks of group " + group);
    }

    /** The answer of one call, within the timeout; {@code what} names the call in the error. */
    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = KafkaFutures.unwrap(e);
            throw new IllegalStateException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the destination did not answer within " + timeout.toSeconds() + " s ("
                    + what + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        }
    }

    private <T> Map<String, T> awaitEach(Map<String, CompletableFuture<T>> futures, String what) {
        Map<String, T> out = new HashMap<>();
        futures.forEach((group, future) -> out.put(group, await(future, what + group)));
        return out;
    }

    @Override
    public void close() {
        client.close();
    }
}
