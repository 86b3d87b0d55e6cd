package dev.sextant.domain;

/**
 * The delivery state of a contiguous offset range of one share partition, as persisted by the share coordinator.
 * Values are taken as written; the coordinator keeps {@code firstOffset <= lastOffset} and non-overlapping batches
 * within one record, but this type does not re-check that.
 *
 * @param firstOffset   first offset of the range, inclusive
 * @param lastOffset    last offset of the range, inclusive
 * @param deliveryState {@link #AVAILABLE}, {@link #ACKNOWLEDGED} or {@link #ARCHIVED} (acquisition is not persisted)
 * @param deliveryCount how many times the records were delivered
 */
public record StateBatch(long firstOffset, long lastOffset, byte deliveryState, short deliveryCount) {

    /** Can be (re)delivered. */
    public static final byte AVAILABLE = 0;
    /** Acknowledged by a consumer: delivery complete. */
    public static final byte ACKNOWLEDGED = 2;
    /** Archived (rejected, or delivery count exhausted): delivery complete, never delivered again. */
    public static final byte ARCHIVED = 4;

    /** Whether the records were acknowledged (state 2). */
    public boolean isAcknowledged() {
        return deliveryState == ACKNOWLEDGED;
    }

    /** Whether the records were archived (state 4). */
    public boolean isArchived() {
        return deliveryState == ARCHIVED;
    }

    /**
     * Whether delivery of these records is complete (acknowledged or archived), i.e. a share group moved to
     * another cluster must not deliver them again.
     */
    public boolean isComplete() {
        return isAcknowledged() || isArchived();
    }
}
