package dev.sextant.domain;

/** Why a position was not applied on the destination; the {@code reason} field of a dead-letter record. */
public enum Reason {
    /** The group exists on the destination as another group type (consumer vs share vs streams). */
    TYPE_CONFLICT,
    /**
     * The group is a Kafka Streams group (KIP-1071) and the destination cannot take it: its brokers run no streams
     * groups, or a release that loses a converted group's offsets (4.2.0, KAFKA-20254; 4.2 unless
     * {@code sync.streams.destination.kafka.version} says 4.2.1 or later). Nothing is written until it can.
     */
    DESTINATION_UNSUPPORTED,
    /**
     * The group's destination offsets were written from another source cluster (the source was replaced, or
     * {@code source.bootstrap.servers} names another cluster): a new source's commits cannot be ordered against them,
     * so nothing is written until an operator runs {@code sextant rebaseline --source --apply}.
     */
    SOURCE_CHANGED,
    /**
     * The group was cut over to the destination ({@code sextant cutover --apply}) and a consumer committed on the
     * source after that (a zombie, a forgotten job): the commit is not written; the destination keeps what the
     * cutover gave it until {@code sextant cutover --undo --apply} gives the group back to the sync.
     */
    CUT_OVER,
    /** The group has members on the destination: writing would make it double-active. */
    GROUP_ACTIVE,
    /** The destination offset was committed by someone other than Sextant. */
    DESTINATION_DIVERGED,
    /** The destination topic (or partition) did not appear within {@code sync.pending.timeout.ms}. */
    TOPIC_NOT_MIRRORED,
    /** No offset sync covered the committed offset within {@code sync.pending.timeout.ms}. */
    UNTRANSLATABLE,
    /** An input record could not be decoded; it was counted and skipped. */
    UNDECODABLE,
    /**
     * An offset sync that does not describe the two logs (negative offsets, beyond a log's end, an unknown
     * partition, or going backwards while the source topic was not recreated); it never entered the history.
     */
    INVALID_OFFSET_SYNC,
    /**
     * A mirror topic on the destination was created again (a new topic id: re-seeded, or the destination rebuilt):
     * the offset-sync history of its source topic was forgotten, and the positions written through it are planned
     * again through the new mirror's syncs.
     */
    MIRROR_RESEEDED,
    /**
     * The destination is not the cluster Sextant wrote to so far (its cluster id changed: rebuilt, or another cluster
     * behind the configured address): nothing is written until an operator runs {@code sextant rebaseline --apply}.
     */
    DESTINATION_CHANGED
}
