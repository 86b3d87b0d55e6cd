package dev.sextant.domain;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replayed state of one share partition of one share group, as the share coordinator keeps it in
 * {@code __share_group_state}: the share-partition start offset (SPSO) and the state batches of in-flight records
 * above it. A snapshot replaces the state; an update overlays its batches (newer wins, offset by offset) and moves the
 * SPSO unless it carries -1.
 *
 * <p>Why {@link #effectiveStartOffset()}: the coordinator moves the stored SPSO lazily, so acknowledged records often
 * sit above it (seen live: SPSO 10 with 10..29 acknowledged). A failed-over share group that started at the stored
 * SPSO would redeliver them. The effective start offset skips the contiguous run of Acknowledged or Archived records
 * that starts at the SPSO; records above a gap (available, or acquired and not yet acknowledged) are not skipped.
 *
 * @param startOffset   the stored SPSO, -1 while uninitialised
 * @param batches       non-overlapping, sorted by first offset, all at or above {@code startOffset}
 * @param lastForwarded the effective start offset last handed to the group's task, -1 if none
 */
public record SharePartitionState(long startOffset, List<StateBatch> batches, long lastForwarded) {

    private static final byte FORMAT = 1;

    public static SharePartitionState empty() {
        return new SharePartitionState(-1, List.of(), -1);
    }

    public SharePartitionState snapshot(long newStart, List<StateBatch> newBatches) {
        return new SharePartitionState(newStart, normalise(newStart, overlay(List.of(), newBatches)), lastForwarded);
    }

    public SharePartitionState update(long newStart, List<StateBatch> changed) {
        long start = newStart == -1 ? startOffset : newStart;
        return new SharePartitionState(start, normalise(start, overlay(batches, changed)), lastForwarded);
    }

    public SharePartitionState forwarded(long offset) {
        return new SharePartitionState(startOffset, batches, offset);
    }

    /** The SPSO moved past the contiguous Acknowledged/Archived records that start at it; -1 while uninitialised. */
    public long effectiveStartOffset() {
        if (startOffset < 0) {
            return -1;
        }
        long start = startOffset;
        for (StateBatch batch : batches) {
            if (batch.firstOffset() > start) {
                break; // a gap: records never delivered, still available
            }
            if (batch.lastOffset() < start) {
                continue;
            }
            if (!batch.isComplete()) {
                break;
            }
            start = batch.lastOffset() + 1;
        }
        return start;
    }

    /** Newer batches win for the offsets they cover; older batches are cut around them. */
    private static List<StateBatch> overlay(List<StateBatch> older, List<StateBatch> newer) {
        TreeMap<Long, StateBatch> byFirst = new TreeMap<>();
        older.forEach(b -> byFirst.put(b.firstOffset(), b));
        for (StateBatch b : newer) {
            // cut every existing batch that overlaps [b.first, b.last]
            Map.Entry<Long, StateBatch> floor = byFirst.floorEntry(b.firstOffset());
            List<StateBatch> overlapping = new ArrayList<>();
            if (floor != null && floor.getValue().lastOffset() >= b.firstOffset()) {
                overlapping.add(floor.getValue());
            }
            overlapping.addAll(byFirst.subMap(b.firstOffset(), true, b.lastOffset(), true).values());
            for (StateBatch old : overlapping) {
                byFirst.remove(old.firstOffset());
                if (old.firstOffset() < b.firstOffset()) {
                    StateBatch left = new StateBatch(old.firstOffset(), b.firstOffset() - 1, old.deliveryState(),
                            old.deliveryCount());
                    byFirst.put(left.firstOffset(), left);
                }
                if (old.lastOffset() > b.lastOffset()) {
                    StateBatch right = new StateBatch(b.lastOffset() + 1, old.lastOffset(), old.deliveryState(),
                            old.deliveryCount());
                    byFirst.put(right.firstOffset(), right);
                }
            }
            byFirst.put(b.firstOffset(), b);
        }
        return new ArrayList<>(byFirst.values());
    }

    /** Drops what lies below the start offset: the coordinator no longer tracks those records. */
    private static List<StateBatch> normalise(long start, List<StateBatch> batches) {
        List<StateBatch> out = new ArrayList<>();
        for (StateBatch b : batches) {
            if (b.lastOffset() < start) {
                continue;
            }
            out.add(b.firstOffset() < start
                    ? new StateBatch(start, b.lastOffset(), b.deliveryState(), b.deliveryCount()) : b);
        }
        return List.copyOf(out);
    }

    public byte[] toBytes() {
        ByteBuffer buf = ByteBuffer.allocate(1 + 8 + 8 + 4 + batches.size() * (8 + 8 + 1 + 2));
        buf.put(FORMAT).putLong(startOffset).putLong(lastForwarded).putInt(batches.size());
        for (StateBatch b : batches) {
            buf.putLong(b.firstOffset()).putLong(b.lastOffset()).put(b.deliveryState()).putShort(b.deliveryCount());
        }
        return buf.array();
    }

    public static SharePartitionState fromBytes(byte[] raw) {
        ByteBuffer buf = ByteBuffer.wrap(raw);
        byte format = buf.get();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown share state format " + format);
        }
        long start = buf.getLong();
        long forwarded = buf.getLong();
        int n = buf.getInt();
        List<StateBatch> batches = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            batches.add(new StateBatch(buf.getLong(), buf.getLong(), buf.get(), buf.getShort()));
        }
        return new SharePartitionState(start, List.copyOf(batches), forwarded);
    }
}
