package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.GroupKind;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class OffsetRefreshTest {

    private static final long MINUTE = 60_000;

    @Test
    void theIntervalIsHalfTheDestinationsRetentionOrTheConfiguredOne() {
        AtomicLong retention = new AtomicLong(-1);
        OffsetRefresh derived = new OffsetRefresh(0, retention::get, 0, null, null, null);
        assertEquals(OffsetRefresh.DEFAULT_RETENTION_MS / 2, derived.intervalMs(), "7 days assumed while unknown");
        retention.set(10 * MINUTE);
        assertEquals(5 * MINUTE, derived.intervalMs());
        assertEquals(42_000, new OffsetRefresh(42_000, retention::get, 0, null, null, null).intervalMs());
    }

    @Test
    void appliedConsumerPositionsAreDueBetweenThreeQuartersOfTheIntervalAndAllOfIt() {
        OffsetRefresh refresh = new OffsetRefresh(0, () -> 2 * 40 * MINUTE, 0, null, null, null); // interval 40 min
        Map<PositionKey, PartitionPosition> stored = new LinkedHashMap<>();
        for (int g = 0; g < 200; g++) {
            stored.put(new PositionKey("g" + g, "orders", 0), applied(0));
        }
        PositionKey share = new PositionKey("share-g", "orders", 0);
        stored.put(share, applied(0));
        PositionKey pending = new PositionKey("pending-g", "orders", 0);
        stored.put(pending, applied(0).withStatus(PositionStatus.PENDING, 0));

        assertTrue(refresh.due(0));
        assertEquals(List.of(), refresh.due(29 * MINUTE, stored::forEach, kinds(share)), "before 3/4 of it: none");
        assertFalse(refresh.due(29 * MINUTE + 1_000), "scanned every fifth of the interval");
        List<PositionKey> early = refresh.due(35 * MINUTE, stored::forEach, kinds(share));
        assertTrue(early.size() > 0 && early.size() < 200, "spread over the last quarter: " + early.size());
        Set<PositionKey> all = new HashSet<>(refresh.due(40 * MINUTE, stored::forEach, kinds(share)));
        assertEquals(200, all.size(), "every applied consumer position by the full interval");
        assertFalse(all.contains(share), "share start offsets do not expire");
        assertFalse(all.contains(pending), "a pending position is written anyway");
    }

    @Test
    void aRetentionLoweredSinceTheLastScanScansAtOnce() {
        AtomicLong retention = new AtomicLong(-1);
        OffsetRefresh refresh = new OffsetRefresh(0, retention::get, 0, null, null, null);
        Map<PositionKey, PartitionPosition> stored = Map.of(new PositionKey("g", "orders", 0), applied(0));
        assertEquals(List.of(), refresh.due(60_000, stored::forEach, g -> GroupKind.CONSUMER));
        assertFalse(refresh.due(120_000), "7 days assumed: the next scan in 10 minutes");
        retention.set(MINUTE); // an operator restarted the destination with offsets.retention.minutes=1
        assertTrue(refresh.due(120_000), "scanned at once with the shorter interval");
        assertEquals(1, refresh.due(120_000, stored::forEach, g -> GroupKind.CONSUMER).size(),
                "applied two minutes ago: due under a 30 s interval");
    }

    private static Function<String, GroupKind> kinds(PositionKey share) {
        return g -> g.equals(share.group()) ? GroupKind.SHARE : GroupKind.CONSUMER;
    }

    private static PartitionPosition applied(long at) {
        return PartitionPosition.committed(100, at, 7).settled(100, 100, PositionStatus.APPLIED, at);
    }
}
