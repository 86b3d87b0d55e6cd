package dev.sextant.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * What Sextant knows of a source group as a whole.
 *
 * @param type         the sync phase the group belongs to
 * @param protocolType the source group's protocol type: for classic groups as the client wrote it ("consumer", ""
 *                     for simple groups), "consumer" for consumer-protocol groups, "streams" for Kafka Streams
 *                     groups (KIP-1071), "share" for share groups
 * @param openReason   the dead-letter reason last reported for the group and not cleared since, or null; a new
 *                     dead-letter record is written only when this changes, so the topic stays readable
 * @param shareTopics  for share groups, source topic names by topic id (from the group's
 *                     ShareGroupStatePartitionMetadata record), to name the partitions of its share state
 */
public record GroupRecord(GroupKind type, String protocolType, Reason openReason, Map<String, String> shareTopics) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public GroupRecord {
        shareTopics = shareTopics == null ? Map.of() : Map.copyOf(shareTopics);
    }

    public static GroupRecord of(GroupKind type) {
        return new GroupRecord(type, null, null, Map.of());
    }

    /** The protocol type of Kafka Streams groups (KIP-1071). */
    public static final String STREAMS_PROTOCOL = "streams";

    /** True for a Kafka Streams group (streams protocol): its offsets sync as a consumer group's. */
    public boolean streams() {
        return type == GroupKind.CONSUMER && STREAMS_PROTOCOL.equals(protocolType);
    }

    /** How the group's type is shown: "consumer", "share", or "streams" for a Kafka Streams group. */
    public String typeLabel() {
        return streams() ? STREAMS_PROTOCOL : type.label();
    }

    public GroupRecord withReason(Reason reason) {
        return new GroupRecord(type, protocolType, reason, shareTopics);
    }

    public GroupRecord withType(GroupKind newType, String newProtocolType) {
        return new GroupRecord(newType, newProtocolType, openReason, shareTopics);
    }

    public GroupRecord withShareTopics(Map<String, String> topics) {
        return new GroupRecord(type, protocolType, openReason, topics);
    }

    public byte[] toBytes() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static GroupRecord fromBytes(byte[] raw) {
        try {
            return JSON.readValue(raw, GroupRecord.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
