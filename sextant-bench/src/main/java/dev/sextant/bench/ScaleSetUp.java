package dev.sextant.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What a scale instance of the sync scenario starts from, before any syncer starts: its caught-up topic with the
 * first records and offset syncs, and every group of every syncer with its first commit.
 */
final class ScaleSetUp {

    /** Records per partition of the caught-up topic before the groups' first commit (so each partition has a sync). */
    static final int FIRST_RECORDS = 10;

    private ScaleSetUp() {
    }

    /**
     * The caught-up topic with its first records and offset syncs, and every group's first commit (on each partition
     * the upstream offset of its first sync, so it translates exactly), before any syncer starts: MirrorMaker's
     * checkpoint connector finds the groups at start.
     *
     * @return each system's groups: {@code nCaught} caught up on {@code lat}, then {@code nLag} lagging
     */
    static Map<String, List<TrackedGroup>> groups(Session session, int n, List<String> systems, Committer committer,
                                                  String lat, int nCaught, int nLag) {
        BenchSettings cfg = session.settings;
        int partitions = cfg.partitionsAt(n);
        String lag = Session.LAG_TOPIC;
        session.clusters.createTopic(session.clusters.source(), lat, partitions);
        // the groups' first commit must be translatable for the initial sync to finish (by every system, MirrorMaker
        // 2's rule included): a few records, then each partition's first offset sync, and the first commit at the
        // upstream offset of that sync. MirrorMaker 2 keeps at most 10 syncs outstanding and coalesces the rest, so
        // with more than 10 partitions some first syncs are at the last of the first records, not at 0.
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, partitions)) {
            producer.produce(FIRST_RECORDS, 1_000);
        }
        long syncDeadline = System.nanoTime() + 120_000_000_000L;
        long[] latFirst = firstSyncs(session, lat, partitions, syncDeadline);
        long[] lagFirst = firstSyncs(session, lag, cfg.lagPartitions(), syncDeadline);
        Map<String, List<TrackedGroup>> groups = new LinkedHashMap<>();
        for (String system : systems) {
            String prefix = SyncScenario.prefix(system, n);
            List<TrackedGroup> list = new ArrayList<>(nCaught + nLag);
            for (int i = 0; i < nCaught; i++) {
                list.add(new TrackedGroup(String.format("%sc-%05d", prefix, i), lat, "source." + lat,
                        partitions, false));
            }
            for (int j = 0; j < nLag; j++) {
                list.add(new TrackedGroup(String.format("%sl-%05d", prefix, j), lag, "source." + lag,
                        cfg.lagPartitions(), true));
            }
            groups.put(system, list);
        }
        // every group exists (with an offset on a mirrored topic) before MirrorMaker's checkpoint connector starts
        for (List<TrackedGroup> list : groups.values()) {
            for (TrackedGroup g : list) {
                committer.commit(g, (g.lagging ? lagFirst : latFirst).clone(), false);
            }
        }
        committer.drain();
        committer.throwIfAnyFailed("creating the groups");
        return groups;
    }

    /** Per partition of {@code topic}, the upstream offset of its first offset sync, waited for until the deadline. */
    private static long[] firstSyncs(Session session, String topic, int partitions, long deadline) {
        long[] first = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            while ((first[p] = session.syncs.oldestUpstream(topic, p)) < 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no MirrorMaker offset sync for " + topic + "-" + p
                            + " within 120 s (" + syncedPartitions(session, topic, partitions) + " of " + partitions
                            + " partitions have one)");
                }
                Bench.sleep(100);
            }
        }
        return first;
    }

    private static long syncedPartitions(Session session, String topic, int partitions) {
        return IntStream.range(0, partitions)
                .filter(p -> session.syncs.oldestUpstream(topic, p) >= 0).count();
    }
}
