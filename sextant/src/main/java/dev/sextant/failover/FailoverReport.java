package dev.sextant.failover;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code sextant failover} reports (with the source gone): per group, what the destination holds, how exact it
 * is, what a live Sextant instance still holds that the destination lacks, and whether a consumer starting there
 * resumes without skipping. The records are the JSON the command prints.
 */
public final class FailoverReport {

    /** Where a partition stands. */
    public enum PartitionStatus {
        /** The destination holds Sextant's latest translation (or, for share groups, its start offset). */
        IN_SYNC,
        /** A Sextant instance holds a newer translation than the destination: written with apply. */
        PENDING,
        /** Written by this failover. */
        WRITTEN,
        /** The offset there was not written by Sextant. */
        NOT_SEXTANT,
        /** The pending translation could not be written. */
        NOT_WRITTEN,
        /**
         * The instance has no translation for the group's commit (no offset sync covers it, or the topic is not
         * mirrored) and the destination holds no offset: a consumer would start from {@code auto.offset.reset}.
         */
        UNTRANSLATED,
        /** The instance applied this partition, and the destination no longer holds it (expired): apply writes it. */
        MISSING;

        /** A row apply writes: a position not applied yet, or one applied and gone from the destination. */
        boolean toWrite() {
            return this == PENDING || this == MISSING;
        }
    }

    /**
     * The outcome for a group. {@code INCOMPLETE}: a partition the group committed on the source has no position
     * Sextant could translate, so nothing can be written for it; not clean.
     */
    public enum GroupResult {
        READY, PENDING, APPLIED, REFUSED, FAILED, INCOMPLETE,
        /** Cut over with {@code sextant cutover}: its consumers run on the destination; nothing to do. */
        CUT_OVER
    }

    /**
     * @param offset        the destination's committed (or start) offset; null when it holds none
     * @param precision     {@code exact} or {@code bounded}, null when not known
     * @param lastSyncAgeMs how long ago the source commit this offset carries was made; null when not known
     * @param pendingOffset a newer translation a Sextant instance holds; null when none
     */
    public record PartitionState(String topic, int partition, Long offset, String precision, Long bound,
                                 Long lastSyncAgeMs, Long pendingOffset, PartitionStatus status) {
    }

    public record GroupState(String group, String groupType, String destinationState, GroupResult result,
                             String detail, List<PartitionState> partitions) {

        /**
         * Not refused, failed or incomplete, and no partition without an offset on the destination (a pending or
         * missing one has one there only after {@code apply}): its consumers resume without skipping.
         */
        @JsonProperty("clean")
        public boolean clean() {
            return result != GroupResult.REFUSED && result != GroupResult.FAILED && result != GroupResult.INCOMPLETE
                    && partitions.stream().allMatch(p -> p.offset() != null || p.status() == PartitionStatus.WRITTEN);
        }
    }

    /** @param instance the Sextant instance asked, or null; {@code instanceProblem} why it did not help, or null */
    public record Report(List<GroupState> groups, String instance, String instanceProblem, long tookMs) {

        /** Every group clean (see {@link GroupState#clean()}). */
        public boolean clean() {
            return groups.stream().allMatch(GroupState::clean);
        }
    }

    private FailoverReport() {
    }
}
