package dev.sextant.decode;

/**
 * The group protocol a group id belongs to, as revealed by the group-defining records in {@code __consumer_offsets}.
 * Mirrors {@link org.apache.kafka.common.GroupType} minus {@code UNKNOWN}: a decoded record always knows its kind.
 */
public enum GroupKind {
    /** Classic (pre-KIP-848) group: key type 2 {@code GroupMetadata}. Includes connect and "simple" groups. */
    CLASSIC,
    /** KIP-848 consumer group: key types 3–8 and 16. */
    CONSUMER,
    /** KIP-932 share group: key types 10–15. Never commits offsets to {@code __consumer_offsets}. */
    SHARE,
    /** KIP-1071 streams group: key types 17 and 19–23. */
    STREAMS
}
