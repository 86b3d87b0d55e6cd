package dev.sextant.sync;

import dev.sextant.domain.GroupKind;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which applied consumer-group positions are due to be written again though nothing changed. The destination deletes
 * the offsets of a group without members {@code offsets.retention.minutes} after their commit (7 days by default,
 * often less in managed services); Sextant writes a partition when its source offset changes, so a partition idle for
 * longer would lose its destination offset while Sextant still shows it {@code APPLIED}. MirrorMaker 2 rewrites every
 * group at every interval; Sextant rewrites each position once it has stood for the refresh interval.
 *
 * <p>The interval is {@code sync.offsets.refresh.ms}, or half the destination's retention as its brokers' config says
 * ({@link #DEFAULT_RETENTION_MS} while unknown). A position is due between three quarters of it and all of it, by a
 * hash of its key, so that groups applied together (a start, a mass commit) are not all rewritten in one burst.
 *
 * <p>Cost: the task's stored positions are scanned every fifth of the interval (at least every second, at most every
 * ten minutes), on the stream thread, without any request; only the due ones cost a write. Share-group start
 * offsets are kept in the share-group state, which does not expire: only consumer groups are refreshed.
 */
final class OffsetRefresh implements ReplanTrigger {

    /** Kafka's default {@code offsets.retention.minutes}: 7 days. */
    static final long DEFAULT_RETENTION_MS = 7L * 24 * 3_600_000;
    private static final long MIN_SCAN_MS = 1_000;
    private static final long MAX_SCAN_MS = 600_000;

    private static final Logger log = LoggerFactory.getLogger(OffsetRefresh.class);

    private final long configuredMs;
    private final LongSupplier retentionMs;
    private final IndexedPositions positions;
    private final Function<String, GroupKind> kindOf;
    private final SextantMetrics metrics;
    private Predicate<String> held = group -> false;
    private long nextScan;
    /** The interval the next scan was scheduled with: a shorter one (a lowered retention read since) scans at once. */
    private long scheduledWith = -1;

    /**
     * @param configuredMs {@code sync.offsets.refresh.ms}, 0 to follow the destination's retention
     * @param retentionMs  the destination's offsets retention in ms, -1 while not known
     * @param positions    the task's positions
     * @param kindOf       a group's kind (only consumer groups are refreshed)
     */
    OffsetRefresh(long configuredMs, LongSupplier retentionMs, long now, IndexedPositions positions,
                  Function<String, GroupKind> kindOf, SextantMetrics metrics) {
        this.configuredMs = configuredMs;
        this.retentionMs = retentionMs;
        this.nextScan = now; // a position that stood long while this instance was down is due at once
        this.positions = positions;
        this.kindOf = kindOf;
        this.metrics = metrics;
    }

    /**
     * Applied offsets that have stood for the refresh interval are written again. Not counted as waiting commits:
     * nothing new is late.
     */
    @Override
    public void markDue(long now, PendingGroups pending) {
        if (!due(now)) {
            return;
        }
        int refreshed = 0;
        for (PositionKey key : due(now, positions::forEachStored, kindOf)) {
            PartitionPosition pos = positions.get(key);
            if (pos != null && applied(pos)) {
                if (!held.test(key.group())) {
                    positions.put(key, pos.withStatus(PositionStatus.PENDING, now));
                } // a cut-over group is written again as it stands (HeldGroups): its state stays what it is
                pending.mark(key);
                refreshed++;
            }
        }
        if (refreshed > 0) {
            metrics.offsetsRefreshed(refreshed);
            log.debug("Writing {} applied offsets again before the destination's offsets retention deletes them",
                    refreshed);
        }
    }

    /**
     * Groups cut over to the destination: refreshed like the others, without their positions being made pending
     * (they are written as applied, and show as they are).
     */
    OffsetRefresh holding(Predicate<String> cutOver) {
        this.held = cutOver;
        return this;
    }

    /** How long an applied position stands before it is written again. */
    long intervalMs() {
        if (configuredMs > 0) {
            return configuredMs;
        }
        long retention = retentionMs.getAsLong();
        return (retention > 0 ? retention : DEFAULT_RETENTION_MS) / 2;
    }

    boolean due(long now) {
        return now >= nextScan || (scheduledWith > 0 && intervalMs() < scheduledWith);
    }

    /** The applied consumer-group positions due now; the next scan is scheduled. */
    List<PositionKey> due(long now, Consumer<BiConsumer<PositionKey, PartitionPosition>> stored,
                          Function<String, GroupKind> kindOf) {
        long interval = intervalMs();
        scheduledWith = interval;
        nextScan = now + Math.max(MIN_SCAN_MS, Math.min(MAX_SCAN_MS, interval / 5));
        List<PositionKey> out = new ArrayList<>();
        stored.accept((key, pos) -> {
            if (applied(pos) && now - pos.appliedAt() >= standFor(key, interval)
                    && kindOf.apply(key.group()) == GroupKind.CONSUMER) {
                out.add(key);
            }
        });
        return out;
    }

    /** Between three quarters of the interval and all of it, by the key. */
    static long standFor(PositionKey key, long interval) {
        long quarter = interval / 4;
        return interval - (quarter == 0 ? 0 : Math.floorMod(key.hashCode(), quarter));
    }

    private static boolean applied(PartitionPosition pos) {
        return pos.status() == PositionStatus.APPLIED && !pos.needsApply() && pos.appliedOffset() >= 0
                && pos.appliedAt() >= 0;
    }
}
