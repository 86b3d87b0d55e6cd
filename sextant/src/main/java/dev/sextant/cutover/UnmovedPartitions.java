package dev.sextant.cutover;

import dev.sextant.apply.ChainedWrites;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.command.CommandContext;
import dev.sextant.config.TopicRoutes;
import dev.sextant.domain.Reason;
import dev.sextant.source.SourceGroup;
import dev.sextant.state.CutoverRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions of a group the running sync never moves, settled before the cutover waits for the sync: the wait
 * covers only what the sync moves ({@link LastCommitWait#synced}), so it never runs out on one of these.
 *
 * <ul>
 *   <li>a partition of a mirror of the destination's own topic that is not translated home (two-way): cut over, the
 *       group would find there whatever the destination holds, so it is refused at once, saying how to move it;</li>
 *   <li>a partition whose last commit on the source is a Sextant's write the sync does not take in (any but a
 *       chain's, {@link ChainedWrites}; failback: the forward Sextant's, when the consumers did not commit there
 *       since the failover). The sync never takes such a write in, but its mark
 *       names the offset it was translated from: when the mark names the destination cluster (or no cluster) and the
 *       destination holds the group at or past that offset, the partition is home already and is cut over as the
 *       destination holds it. Otherwise the group is refused at once, naming the partitions and what to do.</li>
 * </ul>
 *
 * <p>A group left with no partition to cut over (every topic filtered out) is refused too: nothing would be recorded.
 */
final class UnmovedPartitions {

    /**
     * @param home    the partitions home already, as they are cut over (destination offset: what it holds there)
     * @param refusal why the group cannot be cut over, or null
     */
    record Verdict(List<CutoverRecord.Partition> home, String refusal) {

        static Verdict refused(String refusal) {
            return new Verdict(List.of(), refusal);
        }
    }

    private final CommandContext context;
    private final TopicRoutes routes;
    /** Opened on the first group that needs the destination read: most cutovers never do. */
    private DestinationSession destination;
    private String destinationCluster;
    private final ChainedWrites chained;

    UnmovedPartitions(CommandContext context, TopicRoutes routes) {
        this.context = context;
        this.routes = routes;
        this.chained = new ChainedWrites(context.config().applicationId(), () -> Set.of(destinationCluster()));
    }

    /** Which Sextant writes on the source the sync takes in, as the sync tells them: by the destination's id. */
    ChainedWrites chained() {
        return chained;
    }

    /** The destination cluster's id, read once, when a mark first names a cluster. */
    private String destinationCluster() {
        if (destinationCluster == null) {
            destinationCluster = context.destinationClusterId();
        }
        return destinationCluster;
    }

    /** The group's unmoved partitions as the source and the destination show them now. */
    Verdict judge(SourceGroup group) {
        Verdict mirrors = mirrorsOfDestination(group, routes);
        if (mirrors.refusal() != null || group.metadata().values().stream().allMatch(chained::takenIn)) {
            return mirrors;
        }
        if (destination == null) {
            destination = context.destination(null, false);
        }
        Map<TopicPartition, OffsetAndMetadata> held = destination.consumerOffsets(Set.of(group.group()))
                .getOrDefault(group.group(), Map.of());
        return sextantWrites(group, routes, held, chained, this::destinationCluster);
    }

    /**
     * A problem when the partitions found home before no longer are, as the destination shows them now (its offsets
     * moved meanwhile): the cutover is then refused, and run again.
     */
    Optional<DestinationCheck.Problem> stillHome(SourceGroup group, List<CutoverRecord.Partition> home) {
        if (home.isEmpty()) {
            return Optional.empty();
        }
        Verdict now = judge(group);
        return now.refusal() == null && now.home().equals(home) ? Optional.empty()
                : Optional.of(new DestinationCheck.Problem(Reason.DESTINATION_DIVERGED, "the destination's offsets "
                + "of the partitions home already changed since they were read (" + (now.refusal() != null
                ? now.refusal() : now.home() + ", not " + home) + "): run the cutover again"));
    }

    /**
     * Refused when the group has a partition of a mirror of the destination's own topic that is not translated home,
     * or no partition this Sextant moves; else not refused, and nothing home yet.
     */
    static Verdict mirrorsOfDestination(SourceGroup group, TopicRoutes routes) {
        List<String> mirrors = new ArrayList<>();
        boolean any = false;
        for (TopicPartition tp : group.offsets().keySet()) {
            if (routes.included(tp.topic()) && !routes.moved(tp.topic())) {
                mirrors.add(tp.toString());
            }
            any |= routes.moved(tp.topic());
        }
        if (!mirrors.isEmpty()) {
            return Verdict.refused(list(mirrors) + " (mirrors of the destination's own topics: their records came "
                    + "from there) are never moved by this Sextant, so cut over the group would find there whatever "
                    + "the destination holds for the originals. Set failback.history.topic (sextant failback-config) "
                    + "to translate them home, or leave these topics out of the cutover (topics.exclude in the file "
                    + "given to -c); nothing recorded");
        }
        return any ? new Verdict(List.of(), null) : Verdict.refused("none of its committed partitions is on a topic "
                + "this Sextant moves (topics.include, topics.exclude): nothing to cut over");
    }

    /**
     * The partitions whose last source commit is a Sextant's write the sync does not take in: home when the
     * destination holds the group at or past the offset the write was translated from, on the topic the sync would
     * move the partition to.
     *
     * @param held               the group's committed offsets on the destination
     * @param chained            tells the writes the sync takes in (a chain's), left to the sync
     * @param destinationCluster the destination cluster's id, asked only when a mark names a cluster
     */
    static Verdict sextantWrites(SourceGroup group, TopicRoutes routes, Map<TopicPartition, OffsetAndMetadata> held,
                                 ChainedWrites chained, Supplier<String> destinationCluster) {
        List<CutoverRecord.Partition> home = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        group.offsets().forEach((tp, offset) -> {
            String metadata = group.metadata().get(tp);
            if (!routes.moved(tp.topic()) || chained.takenIn(metadata)) {
                return;
            }
            TopicPartition there = new TopicPartition(routes.destinationTopic(tp.topic()), tp.partition());
            Optional<OffsetOwnership.Mark> mark = OffsetOwnership.anyMark(metadata);
            OffsetAndMetadata at = held.get(there);
            if (mark.isEmpty()) {
                problems.add(tp + ": its metadata starts like a Sextant's mark but does not read as one");
            } else if (mark.get().sourceCluster() != null
                    && !mark.get().sourceCluster().equals(destinationCluster.get())) {
                problems.add(tp + ": written from cluster " + mark.get().sourceCluster() + ", not the destination ("
                        + destinationCluster.get() + ")");
            } else if (at == null || at.offset() < mark.get().sourceOffset()) {
                problems.add(tp + ": written for " + there + " at " + mark.get().sourceOffset()
                        + ", and the destination holds " + (at == null ? "nothing" : at.offset()) + " there");
            } else {
                home.add(new CutoverRecord.Partition(tp.topic(), tp.partition(), offset, there.topic(), at.offset(),
                        "exact", 0L));
            }
        });
        if (!problems.isEmpty()) {
            return Verdict.refused("the last commit on the source of " + list(problems) + " is a Sextant's write, "
                    + "not its consumers' (they did not commit there since), and the sync never moves a Sextant's "
                    + "write. Commit the group's offsets on the source as they stand (kafka-consumer-groups "
                    + "--reset-offsets --to-current --execute), which the sync translates, or set them on the "
                    + "destination; then run the cutover again; nothing recorded");
        }
        return new Verdict(List.copyOf(home), null);
    }

    private static String list(List<String> items) {
        return String.join("; ", items.stream().limit(5).toList())
                + (items.size() > 5 ? "; and " + (items.size() - 5) + " more" : "");
    }
}
