package dev.sextant.history;

import dev.sextant.source.RecordRange;
import dev.sextant.translate.IntervalEvidence.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * A pure verdict on one interval between two offset syncs {@code (U1, D1)} and {@code (U2, D2)} with equal deltas:
 * the source records at {@code [U1, U2]} against the mirror's at {@code [D1, D2]}, compared by distance from the
 * lower sync. The interval is {@link Verdict#PROVEN} when every distance holds a record on both sides or on
 * neither (a transaction marker), and the two records are the same: key, value, headers, and the timestamp when
 * both sides keep the producer's ({@code CreateTime}). One record missing or different on one side
 * {@link Verdict#REFUTED refutes} it. A read that stopped short of either end proves nothing ({@link Verdict#UNKNOWN}).
 *
 * <p>Records are compared by a 64-bit fingerprint. Two different records at the same distance could collide with a
 * chance of about 2<sup>-64</sup>; two identical records (same key, value, headers, timestamp) cannot be told apart,
 * so a shift by exactly such a record, inside an interval whose deltas a skip and a duplicate balanced, passes.
 */
public final class IntervalCheck {

    private IntervalCheck() {
    }

    /**
     * @param source      the source partition's records read from {@code U1} up to {@code U2 + 1}
     * @param destination the mirror partition's records read from {@code D1} up to {@code D2 + 1}
     */
    public static Verdict compare(OffsetSyncPoint lower, OffsetSyncPoint upper, RecordRange source,
                                  RecordRange destination) {
        if (!source.covers(upper.upstreamOffset() + 1) || !destination.covers(upper.downstreamOffset() + 1)) {
            return Verdict.UNKNOWN;
        }
        List<ConsumerRecord<byte[], byte[]>> up = source.records();
        List<ConsumerRecord<byte[], byte[]>> down = destination.records();
        int i = 0;
        int j = 0;
        while (i < up.size() || j < down.size()) {
            long upDistance = i < up.size() ? up.get(i).offset() - lower.upstreamOffset() : Long.MAX_VALUE;
            long downDistance = j < down.size() ? down.get(j).offset() - lower.downstreamOffset() : Long.MAX_VALUE;
            if (upDistance != downDistance || !same(up.get(i), down.get(j))) {
                return Verdict.REFUTED;
            }
            i++;
            j++;
        }
        return Verdict.PROVEN;
    }

    /** The same record: fingerprints equal, timestamps too unless a side stamped its own append time. */
    static boolean same(ConsumerRecord<byte[], byte[]> a, ConsumerRecord<byte[], byte[]> b) {
        boolean stamped = a.timestampType() == TimestampType.LOG_APPEND_TIME
                || b.timestampType() == TimestampType.LOG_APPEND_TIME;
        return fingerprint(a) == fingerprint(b) && (stamped || a.timestamp() == b.timestamp());
    }

    /** Key, value and headers (names, values, order), each length-prefixed: CRC32C high, CRC32 low. */
    static long fingerprint(ConsumerRecord<byte[], byte[]> record) {
        Checksum high = new CRC32C();
        Checksum low = new CRC32();
        feed(high, low, record.key());
        feed(high, low, record.value());
        for (Header header : record.headers()) {
            feed(high, low, header.key().getBytes(StandardCharsets.UTF_8));
            feed(high, low, header.value());
        }
        return high.getValue() << 32 | low.getValue();
    }

    private static void feed(Checksum high, Checksum low, byte[] bytes) {
        int length = bytes == null ? -1 : bytes.length;
        for (int shift = 24; shift >= 0; shift -= 8) {
            high.update(length >>> shift);
            low.update(length >>> shift);
        }
        if (bytes != null) {
            high.update(bytes, 0, bytes.length);
            low.update(bytes, 0, bytes.length);
        }
    }
}
