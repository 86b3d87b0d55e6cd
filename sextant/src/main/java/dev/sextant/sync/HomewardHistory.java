package dev.sextant.sync;

import dev.sextant.translate.OffsetSyncPoint;
import dev.sextant.translate.SyncHistory;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The history translation reads when mirrors of the destination's own topics go home (failback): for those topics the
 * forward flow's syncs inverted, for every other topic this Sextant's own history.
 */
final class HomewardHistory implements SyncHistory {

    private final SyncHistory own;
    private final SyncHistory returned;
    private final Predicate<String> homeward;
    /** Per topic: translation asks at every lookup, and the replication policy answers with a regex split. */
    private final Map<String, Boolean> seen = new HashMap<>();

    /** @param homeward true for a source topic that is a mirror of one of the destination's own topics */
    HomewardHistory(SyncHistory own, SyncHistory returned, Predicate<String> homeward) {
        this.own = own;
        this.returned = returned;
        this.homeward = homeward;
    }

    private boolean homeward(String topic) {
        if (seen.size() >= 10_000) {
            seen.clear(); // churning topic names must not grow it for ever
        }
        return seen.computeIfAbsent(topic, homeward::test);
    }

    @Override
    public Optional<OffsetSyncPoint> latestAtOrBelow(String topic, int partition, long upstreamOffset) {
        return (homeward(topic) ? returned : own).latestAtOrBelow(topic, partition, upstreamOffset);
    }

    @Override
    public Optional<OffsetSyncPoint> earliestAbove(String topic, int partition, long upstreamOffset) {
        return (homeward(topic) ? returned : own).earliestAbove(topic, partition, upstreamOffset);
    }

    /** The newest sync in the history the partition translates through: what a bounded position may improve on. */
    @Override
    public Optional<OffsetSyncPoint> newest(String topic, int partition) {
        return (homeward(topic) ? returned : own).newest(topic, partition);
    }
}
