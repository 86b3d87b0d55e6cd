package dev.sextant.state;

/** Where one partition of a group stands in the sync. */
public enum PositionStatus {
    /** A newer source position waits for the next flush. */
    PENDING,
    /** The destination holds the translation of the current source position. */
    APPLIED,
    /** No offset sync covers the source position yet; retried. */
    UNTRANSLATABLE,
    /** The destination topic or partition does not exist yet; retried. */
    TOPIC_NOT_MIRRORED,
    /** The group has members on the destination; retried once it is empty. */
    GROUP_ACTIVE,
    /** The group exists on the destination as another type; retried at a slow pace. */
    TYPE_CONFLICT,
    /**
     * The group is a Kafka Streams group and the destination cannot take it (no streams groups there, or a release
     * whose conversion loses offsets); retried at a slow pace, written once the destination can.
     */
    DESTINATION_UNSUPPORTED,
    /**
     * The destination offsets of the group name another source cluster (the source was replaced): retried at a slow
     * pace, written once an operator released them ({@code sextant rebaseline --source --apply}).
     */
    SOURCE_CHANGED,
    /** Someone other than Sextant committed on the destination; retried at a slow pace. */
    DESTINATION_DIVERGED,
    /** The source rewound and {@code sync.rewind=never}: the destination keeps its higher offset. */
    REWIND_SKIPPED,
    /**
     * The destination holds the translation of a newer source commit than this one (written by the instance that
     * owns the group now, or before this commit was replayed after a restore): this older one is not written.
     */
    SUPERSEDED;

    /** True for statuses that a later flush retries without a new source commit. */
    public boolean retried() {
        return this != APPLIED && this != REWIND_SKIPPED && this != SUPERSEDED;
    }

    /** True for the outcomes that settle a position: the destination holds what it should, or better. */
    public boolean settles() {
        return this == APPLIED || this == REWIND_SKIPPED || this == SUPERSEDED;
    }
}
