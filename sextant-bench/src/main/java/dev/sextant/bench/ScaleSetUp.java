package dev.sextant.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scale instance of the sync scenario starts from, before any syncer starts: its caught-up topic with the
 * first records and offset syncs, and every group of every syncer with its first commit.
 */
final class ScaleSetUp {

    /** Records per partition of the caught-up topic before the groups commit offset 0 (so 0 translates). */
    static final int FIRST_RECORDS = 10;

    private ScaleSetUp() {
    }

    /**
     * The caught-up topic with its first records and offset syncs, and every group's first commit (offset 0), before
     * any syncer starts: MirrorMaker's checkpoint connector finds the groups at start.
     *
     * @return each system's groups: {@code nCaught} caught up on {@code lat}, then {@code nLag} lagging
     */
    static Map<String, List<TrackedGroup>> groups(Session session, int n, List<String> systems, Committer committer,
                                                  String lat, int nCaught, int nLag) {
        BenchSettings cfg = session.settings;
        int partitions = cfg.partitionsAt(n);
        String lag = Session.LAG_TOPIC;
        session.clusters.createTopic(session.clusters.source(), lat, partitions);
        // the groups' first commit (offset 0) must be translatable for the initial sync to finish: a few records,
        // and MirrorMaker's first offset sync of each partition (upstream 0), before any group commits
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), lat, partitions)) {
            producer.produce(FIRST_RECORDS, 1_000);
        }
        long syncDeadline = System.nanoTime() + 120_000_000_000L;
        for (String topic : List.of(lat, lag)) {
            int parts = topic.equals(lat) ? partitions : cfg.lagPartitions();
            for (int p = 0; p < parts; p++) {
                while (session.syncs.bestTranslation(topic, p, 0) < 0) {
                    if (System.nanoTime() > syncDeadline) {
                        throw new IllegalStateException("no MirrorMaker offset sync for " + topic + "-" + p
                                + " within 120 s");
                    }
                    Bench.sleep(100);
                }
            }
        }
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
                committer.commit(g, new long[g.partitions], false);
            }
        }
        committer.drain();
        committer.throwIfAnyFailed("creating the groups");
        return groups;
    }
}
