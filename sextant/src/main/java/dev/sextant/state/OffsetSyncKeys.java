package dev.sextant.state;

import dev.sextant.domain.MirrorRewind;
import dev.sextant.translate.OffsetSyncPoint;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;

/**
 * Byte layout of the offset-sync history keys, chosen so RocksDB's byte order is the order of the history:
 *
 * <pre>
 *   [int16 topic length][topic UTF-8][int32 partition][int64 upstream offset]   (all big-endian)
 * </pre>
 *
 * Offsets are never negative, so for one source partition the keys sort by upstream offset and "the latest sync
 * at or below C" is the first entry of a reverse range scan ending at C. An upstream offset of {@link #RESET}
 * (all bits set) is never stored: on the history topic it marks "forget every sync of this partition". One of
 * {@link #INCARNATION}, on partition 0, holds the source topic's id (16 bytes) that the topic's history belongs to, and
 * one of {@link #MIRROR_INCARNATION} the id of its mirror topic on the destination; negative offsets sort after every
 * real one, so no range scan of syncs meets them. The key ({@code "."}, 0, {@link #DESTINATION_CLUSTER}) pins the
 * destination cluster's id. One of {@link #REWIND} holds where the partition's mirror last went back
 * ({@link MirrorRewind}: two offsets, 16 bytes).
 */
public final class OffsetSyncKeys {

    /** Upstream offset of a reset marker on the history topic. */
    public static final long RESET = -1L;
    /** Upstream offset of the key that holds a topic's incarnation (its source topic id), on partition 0. */
    public static final long INCARNATION = -2L;
    /** Upstream offset of the key that holds the mirror topic's id (on the destination) the history describes. */
    public static final long MIRROR_INCARNATION = -3L;
    /** Upstream offset of the key that pins the destination cluster's id the history was gathered against. */
    public static final long DESTINATION_CLUSTER = -4L;
    /** Upstream offset of the key that holds where the partition's mirror last went back ({@link MirrorRewind}). */
    public static final long REWIND = -5L;
    /** The topic name of the pin's key: not one Kafka allows, so no real topic's history can meet it. */
    static final String PIN_TOPIC = ".";

    private OffsetSyncKeys() {
    }

    public static Bytes key(String topic, int partition, long upstreamOffset) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(2 + name.length + 4 + 8)
                .putShort((short) name.length).put(name).putInt(partition).putLong(upstreamOffset).array());
    }

    public static Bytes resetMarker(String topic, int partition) {
        return key(topic, partition, RESET);
    }

    /** The key of the topic's incarnation: the source topic id its history belongs to. */
    public static Bytes incarnationKey(String topic) {
        return key(topic, 0, INCARNATION);
    }

    /** The key of the topic's mirror incarnation: the destination topic id its syncs' downstream offsets are of. */
    public static Bytes mirrorIncarnationKey(String topic) {
        return key(topic, 0, MIRROR_INCARNATION);
    }

    /** The key of where the partition's mirror last went back. */
    public static Bytes rewindKey(String topic, int partition) {
        return key(topic, partition, REWIND);
    }

    public static byte[] rewindValue(MirrorRewind rewind) {
        return ByteBuffer.allocate(16).putLong(rewind.upstreamOffset()).putLong(rewind.downstreamOffset()).array();
    }

    /**
     * The rewind a rewind record holds.
     *
     * @throws IllegalArgumentException when the value is not two non-negative offsets
     */
    public static MirrorRewind rewindOf(byte[] value) {
        if (value == null || value.length != 16) {
            throw new IllegalArgumentException("offset-sync history rewind of " + (value == null ? "no" : value.length)
                    + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(value);
        long upstream = buf.getLong();
        long downstream = buf.getLong();
        if (upstream < 0 || downstream < 0) {
            throw new IllegalArgumentException("offset-sync history rewind " + upstream + " -> " + downstream);
        }
        return new MirrorRewind(upstream, downstream);
    }

    /** The key of the destination cluster's pin: the cluster id Sextant writes to (see {@link #clusterOf}). */
    public static Bytes destinationClusterKey() {
        return key(PIN_TOPIC, 0, DESTINATION_CLUSTER);
    }

    public static byte[] clusterValue(String clusterId) {
        return clusterId.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The cluster id a pin holds.
     *
     * @throws IllegalArgumentException when the value is empty or longer than a cluster id can be
     */
    public static String clusterOf(byte[] value) {
        if (value == null || value.length == 0 || value.length > 255) {
            throw new IllegalArgumentException("offset-sync history cluster pin of "
                    + (value == null ? "no" : value.length) + " bytes");
        }
        return new String(value, StandardCharsets.UTF_8);
    }

    public static byte[] incarnationValue(Uuid topicId) {
        return ByteBuffer.allocate(16).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).array();
    }

    /**
     * The topic id an incarnation record holds.
     *
     * @throws IllegalArgumentException when the value is not 16 bytes
     */
    public static Uuid incarnationOf(byte[] value) {
        if (value == null || value.length != 16) {
            throw new IllegalArgumentException("offset-sync history incarnation of "
                    + (value == null ? "no" : value.length) + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(value);
        return new Uuid(buf.getLong(), buf.getLong());
    }

    /** True for the keys of syncs, false for a reset marker, an incarnation, a pin or a rewind. */
    public static boolean isSync(Bytes key) {
        return upstreamOf(key) >= 0;
    }

    /**
     * The sync a key and value stand for; the downstream offset is -1 when there is no value (a tombstone, or a reset
     * marker's empty one).
     *
     * @throws IllegalArgumentException when the bytes are not a key or value laid out as above (the history topic
     *     is written by Sextant, but anyone allowed to write it can put anything there)
     */
    public static OffsetSyncPoint decode(Bytes key, byte[] value) {
        byte[] raw = key.get();
        if (raw.length < 2 + 4 + 8) {
            throw new IllegalArgumentException("offset-sync history key of " + raw.length + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(raw);
        int nameLength = buf.getShort();
        if (nameLength < 1 || nameLength != raw.length - (2 + 4 + 8)) {
            throw new IllegalArgumentException("offset-sync history key of " + raw.length
                    + " bytes with a topic name of " + nameLength);
        }
        String topic = new String(raw, 2, nameLength, StandardCharsets.UTF_8);
        buf.position(2 + nameLength);
        int partition = buf.getInt();
        long upstream = buf.getLong();
        OffsetSyncPoint marker = markerPoint(topic, partition, upstream, value);
        if (marker != null) {
            return marker;
        }
        if (partition < 0 || (upstream < 0 && upstream != RESET)) {
            throw new IllegalArgumentException("offset-sync history key for " + topic + "-" + partition
                    + " at upstream offset " + upstream);
        }
        return new OffsetSyncPoint(topic, partition, upstream, downstreamOf(topic, partition, upstream, value));
    }

    /**
     * An incarnation, pin or rewind record as a point (downstream -1), its value checked when there is one; null for
     * the key of a sync or a reset marker.
     */
    private static OffsetSyncPoint markerPoint(String topic, int partition, long upstream, byte[] value) {
        if ((upstream == INCARNATION || upstream == MIRROR_INCARNATION) && partition == 0) {
            return incarnationPoint(topic, value, upstream);
        }
        if (upstream == DESTINATION_CLUSTER && partition == 0 && topic.equals(PIN_TOPIC)) {
            if (value != null) {
                clusterOf(value);
            }
            return new OffsetSyncPoint(topic, 0, DESTINATION_CLUSTER, -1);
        }
        if (upstream == REWIND && partition >= 0) {
            if (value != null) {
                rewindOf(value);
            }
            return new OffsetSyncPoint(topic, partition, REWIND, -1);
        }
        return null;
    }

    /** An incarnation record (of either cluster) as a point (downstream -1), its value checked when there is one. */
    private static OffsetSyncPoint incarnationPoint(String topic, byte[] value, long kind) {
        if (value != null) {
            incarnationOf(value);
        }
        return new OffsetSyncPoint(topic, 0, kind, -1);
    }

    private static long downstreamOf(String topic, int partition, long upstream, byte[] value) {
        long downstream = -1;
        if (value != null && value.length > 0) {
            if (value.length != 8 || upstream == RESET) {
                throw new IllegalArgumentException("offset-sync history value of " + value.length + " bytes for "
                        + topic + "-" + partition + (upstream == RESET ? " (reset marker)" : ""));
            }
            downstream = ByteBuffer.wrap(value).getLong();
            if (downstream < 0) {
                throw new IllegalArgumentException("offset-sync history value " + downstream + " for " + topic + "-"
                        + partition + "@" + upstream);
            }
        }
        return downstream;
    }

    public static long upstreamOf(Bytes key) {
        byte[] raw = key.get();
        return ByteBuffer.wrap(raw, raw.length - 8, 8).getLong();
    }

    public static byte[] value(long downstreamOffset) {
        return ByteBuffer.allocate(8).putLong(downstreamOffset).array();
    }
}
