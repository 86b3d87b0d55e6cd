package dev.sextant.apply;

import java.nio.ByteBuffer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Struct;
import org.apache.kafka.connect.mirror.Checkpoint;

/**
 * MirrorMaker 2's checkpoint record format, written with the schemas {@link Checkpoint} publishes: the key is
 * (group, topic, partition), the value a version header followed by (upstream offset, downstream offset,
 * metadata). The topic-partition is the destination one (MirrorMaker 2 renames it through the replication policy),
 * which is what {@code RemoteClusterUtils.translateOffsets} hands back.
 */
final class CheckpointRecords {

    private CheckpointRecords() {
    }

    static byte[] key(String group, TopicPartition destination) {
        Struct key = new Struct(Checkpoint.KEY_SCHEMA);
        key.set(Checkpoint.CONSUMER_GROUP_ID_KEY, group);
        key.set(Checkpoint.TOPIC_KEY, destination.topic());
        key.set(Checkpoint.PARTITION_KEY, destination.partition());
        return write(Checkpoint.KEY_SCHEMA, key, null, null);
    }

    static byte[] value(long upstreamOffset, long downstreamOffset, String metadata) {
        Struct header = new Struct(Checkpoint.HEADER_SCHEMA);
        header.set(Checkpoint.VERSION_KEY, (short) 0);
        Struct value = new Struct(Checkpoint.VALUE_SCHEMA_V0);
        value.set(Checkpoint.UPSTREAM_OFFSET_KEY, upstreamOffset);
        value.set(Checkpoint.DOWNSTREAM_OFFSET_KEY, downstreamOffset);
        value.set(Checkpoint.METADATA_KEY, metadata);
        return write(Checkpoint.HEADER_SCHEMA, header, Checkpoint.VALUE_SCHEMA_V0, value);
    }

    private static byte[] write(Schema first, Struct a, Schema second, Struct b) {
        ByteBuffer buffer = ByteBuffer.allocate(first.sizeOf(a) + (second == null ? 0 : second.sizeOf(b)));
        first.write(buffer, a);
        if (second != null) {
            second.write(buffer, b);
        }
        return buffer.array();
    }
}
