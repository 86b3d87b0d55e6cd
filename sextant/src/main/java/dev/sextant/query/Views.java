package dev.sextant.query;

import dev.sextant.deadletter.DeadLetterRecord;
import java.util.List;

/**
 * The JSON documents of the HTTP API (field names are the public contract, camelCase, as in the dead-letter schema).
 * Offsets and times that are not known are {@code null}; times are epoch milliseconds.
 */
public final class Views {

    private Views() {
    }

    /** One partition of {@code GET /v1/groups/{group}}. */
    public record PartitionView(String topic, int partition, String destinationTopic, long sourceOffset,
                                Long translatedOffset, String precision, Long bound, Long appliedOffset,
                                Long appliedAt, String status, Long commitTimestamp) {

        public PartitionView(String topic, int partition, String destinationTopic, long sourceOffset,
                             Long translatedOffset, String precision, Long bound, Long appliedOffset, Long appliedAt,
                             String status) {
            this(topic, partition, destinationTopic, sourceOffset, translatedOffset, precision, bound, appliedOffset,
                    appliedAt, status, null);
        }
    }

    /**
     * {@code GET /v1/groups/{group}}.
     *
     * @param cutOver the group's cutover ({@code sextant cutover --apply}), or null while the sync moves it
     */
    public record GroupDetail(String group, String groupType, List<PartitionView> partitions, CutoverView cutOver) {

        public GroupDetail(String group, String groupType, List<PartitionView> partitions) {
            this(group, groupType, partitions, null);
        }
    }

    /**
     * The {@code cutOver} of {@code GET /v1/groups/{group}}: the group was cut over to the destination, and the sync
     * no longer moves it from the source.
     *
     * @param cutAt         when it was recorded (epoch ms)
     * @param fenceMs       how long its source offsets stood still before
     * @param sourceCluster the source cluster's id, or null
     */
    public record CutoverView(long cutAt, long fenceMs, String sourceCluster) {
    }

    /** One partition of {@code GET /v1/groups/{group}/offsets}: a destination topic-partition and where to seek. */
    public record OffsetView(String topic, int partition, long offset) {
    }

    /** {@code GET /v1/groups/{group}/offsets}. */
    public record GroupOffsets(String group, String groupType, List<OffsetView> offsets) {
    }

    /** One group of {@code GET /v1/groups}. */
    public record GroupSummary(String group, String groupType, String state, int partitions, Long lastSourceCommit,
                               Long lastApply, Long worstReplayBound) {
    }

    /** {@code GET /v1/groups}. */
    public record GroupList(List<GroupSummary> groups) {
    }

    /**
     * One instance's own groups (internal, for the fan-out of {@code GET /v1/groups}): the groups of the
     * {@code __consumer_offsets} partitions it read, and which those were, so the merge can tell a complete answer
     * from one taken in the middle of a rebalance.
     */
    public record LocalGroups(String instance, List<Integer> partitions, List<GroupSummary> groups) {
    }

    /** One instance's own cutovers, for the fan-out of {@code GET /v1/cutovers}. */
    public record LocalCutovers(String instance, List<String> groups) {
    }

    /**
     * {@code GET /v1/cutovers}: per instance, the groups it holds cut over, or why it did not say ({@code problem}:
     * unreachable, or an older release without the endpoint).
     */
    public record CutoverHolders(List<InstanceCutovers> instances) {
    }

    /** @param groups null when the instance did not answer ({@code problem} says why) */
    public record InstanceCutovers(String address, List<String> groups, String problem) {
    }

    /** {@code GET /v1/translate}. */
    public record TranslationView(String topic, int partition, long offset, String destinationTopic,
                                  long destinationOffset, String precision, long bound) {
    }

    /** {@code GET /v1/conflicts}: dead-letter records, newest last. */
    public record ConflictList(String group, int limit, List<DeadLetterRecord> conflicts) {
    }

    /** One instance of {@code GET /v1/instances}: its {@code __consumer_offsets} partitions. */
    public record InstanceView(String address, boolean self, List<Integer> partitions,
                               List<Integer> standbyPartitions) {
    }

    /** {@code GET /v1/instances}. */
    public record InstanceList(List<InstanceView> instances) {
    }

    /** Readiness detail of {@code GET /health/ready} (and liveness of {@code GET /health/live}). */
    /**
     * @param problem why the instance is DOWN although Kafka Streams runs (liveness: threads keep dying; readiness:
     *                the destination unreachable too long), or null
     */
    public record Health(String status, String streamsState, String instance, DestinationHealth destination,
                         List<MissingInput> missingInputs, String sourceError, String problem) {
    }

    /**
     * @param ready            a refresh of the destination's groups and topics has succeeded since the start
     * @param reachable        the last refresh succeeded
     * @param unreachableForMs how long refreshes have been failing (0 while reachable)
     */
    public record DestinationHealth(boolean ready, boolean reachable, long unreachableForMs, String lastError) {
    }

    /** An input topic that does not exist on the source (yet). */
    public record MissingInput(String topic, String description, boolean required) {
    }

    /** Every error answer. */
    public record ErrorBody(String error) {
    }
}
