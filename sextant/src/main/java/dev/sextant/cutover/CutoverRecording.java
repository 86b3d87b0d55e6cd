package dev.sextant.cutover;

import static dev.sextant.cutover.CutoverReport.GroupResult.refused;
import static dev.sextant.cutover.CutoverReport.boundText;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.command.CommandStep;
import dev.sextant.command.CommandStep.Cluster;
import dev.sextant.command.CutoverLedger;
import dev.sextant.source.CommitWatch;
import dev.sextant.source.SourceGroup;
import dev.sextant.source.SourceSession;
import dev.sextant.state.CutoverRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The last steps of a cutover, for every group of a batch whose last commit the sync wrote: each group's destination
 * read directly and its record written; then one wait until every running instance holds all of them
 * ({@link EveryInstanceHolds}); then the fence once more, for all of them in one read of the source. Done group by
 * group, the wait for the instances (their global threads take a record in within a poll) and the fence's poll cost a
 * quarter of a second or more each: minutes for a thousand groups.
 *
 * <p>Invariant: a group is reported {@code CUT_OVER} only when its record is acknowledged, every instance holds it,
 * and no commit of it reached the source from its fence to after that; otherwise its record is withdrawn (or the
 * report says it may stand, and how to take it back).
 */
final class CutoverRecording {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final long INSTANCE_POLL_MS = 200;

    private final SextantClient instance;
    private final Clock clock;
    private final Consumer<String> progress;
    private final CommandStep step;
    private final UnmovedPartitions unmoved;

    CutoverRecording(SextantClient instance, Clock clock, Consumer<String> progress, UnmovedPartitions unmoved,
                     CommandStep step) {
        this.step = step;
        this.instance = instance;
        this.clock = clock;
        this.progress = progress;
        this.unmoved = unmoved;
    }

    /** A group recorded, waiting for the instances and the last fence check. */
    private record Recorded(String type, SourceGroup fenced, long cutAt, List<CutoverRecord.Partition> partitions) {
    }

    /**
     * @param fenced the groups as fenced, each with what of it the sync moves ({@code synced}) and the partitions the
     *               sync never moves that are home already ({@code home}, {@link UnmovedPartitions})
     * @return a result per group
     */
    Map<String, CutoverReport.GroupResult> record(Map<String, SourceGroup> fenced, Map<String, String> known,
                                                  Map<String, Map<TopicPartition, Long>> synced,
                                                  Map<String, List<CutoverRecord.Partition>> home, String cluster,
                                                  DestinationSession destination,
                                                  Map<String, DestinationGroup> listed, CommitWatch watch,
                                                  SourceSession source, CutoverLedger ledger,
                                                  PlannedCutover.Options options) {
        Map<String, CutoverReport.GroupResult> results = new TreeMap<>();
        Map<String, Recorded> recorded = new TreeMap<>();
        progress.accept("recording " + fenced.size() + " group(s) as cut over");
        for (Map.Entry<String, SourceGroup> e : fenced.entrySet()) {
            String group = e.getKey();
            String type = known.get(group);
            List<CutoverRecord.Partition> partitions;
            try {
                partitions = partitions(instance.group(group).partitions(), synced.get(group));
            } catch (SextantClientException failed) {
                results.put(group, refused(group, type, CutoverReport.FAILED, "the Sextant instance did not answer: "
                        + failed.getMessage() + "; nothing recorded, run the command again"));
                continue;
            }
            List<CutoverRecord.Partition> homeAlready = home.getOrDefault(group, List.of());
            step.reading(Cluster.DESTINATION, "check that it holds what the sync wrote for " + group);
            Optional<DestinationCheck.Problem> problem = DestinationCheck.check(group, type, partitions, destination,
                    listed.get(group)).or(() -> unmoved.stillHome(e.getValue(), homeAlready));
            if (problem.isPresent()) {
                results.put(group, refused(group, type, problem.get().reason().name(), problem.get().message()));
                continue;
            }
            partitions.addAll(homeAlready);
            long cutAt = clock.millis();
            step.writing(Cluster.SOURCE, "record " + group + " as cut over");
            try {
                ledger.record(new CutoverRecord(group, type, cutAt, options.fenceCheck().toMillis(), cluster,
                        partitions));
                recorded.put(group, new Recorded(type, e.getValue(), cutAt, partitions));
            } catch (RuntimeException unacknowledged) {
                results.put(group, unacknowledged(group, type, ledger, unacknowledged));
            }
        }
        if (recorded.isEmpty()) {
            return results;
        }
        progress.accept("waiting for every Sextant instance to hold " + recorded.size() + " cutover(s)");
        Map<String, String> unheld = waitForInstances(recorded.keySet(), true, options.timeout());
        unheld.forEach((group, missing) -> results.put(group, refused(group, recorded.get(group).type(),
                CutoverReport.FAILED, "recorded as cut over, but not every Sextant instance held it within "
                + options.timeout().toSeconds() + " s (" + missing + "): run the command again, which checks it")));
        Set<String> held = new TreeSet<>(recorded.keySet());
        held.removeAll(unheld.keySet());
        if (held.isEmpty()) {
            return results;
        }
        step.reading(Cluster.SOURCE, "check the fence once more");
        watch.poll(POLL);
        Map<String, SourceGroup> now = source.read(held);
        for (String group : held) {
            Recorded r = recorded.get(group);
            var breach = FenceCheck.check(r.fenced(), now.get(group), watch.commits(group), clock.millis() - r.cutAt());
            if (breach.isPresent()) {
                ledger.withdraw(group);
                results.put(group, refused(group, r.type(), breach.get().status().name(), breach.get().message()
                        + " (seen while it was being cut over: given back to the sync)"));
            } else {
                long worst = r.partitions().stream().mapToLong(p -> p.bound() == null ? 0 : p.bound()).max()
                        .orElse(0);
                results.put(group, new CutoverReport.GroupResult(group, r.type(), CutoverReport.CUT_OVER, true,
                        "cut over: the destination holds its last commit" + boundText(worst) + "; the sync no "
                        + "longer moves it from the source", r.cutAt(), worst, r.partitions()));
            }
        }
        return results;
    }

    /** The sync's positions of the partitions it moves, as the record keeps them. */
    private static List<CutoverRecord.Partition> partitions(List<SextantClient.Partition> positions,
                                                            Map<TopicPartition, Long> synced) {
        List<CutoverRecord.Partition> partitions = new ArrayList<>();
        for (SextantClient.Partition p : positions) {
            if (synced.containsKey(new TopicPartition(p.topic(), p.partition()))) {
                partitions.add(new CutoverRecord.Partition(p.topic(), p.partition(), p.sourceOffset(),
                        p.destinationTopic(), p.appliedOffset(), p.precision(), p.bound()));
            }
        }
        return partitions;
    }

    /**
     * A cutover record the cluster did not acknowledge may still land (the producer retries it): a tombstone after it,
     * from the same producer, gives the group back, so that no cutover stands without its last fence check.
     */
    private static CutoverReport.GroupResult unacknowledged(String group, String type, CutoverLedger ledger,
                                                           RuntimeException e) {
        try {
            ledger.withdraw(group);
        } catch (RuntimeException withdrawal) {
            return refused(group, type, CutoverReport.FAILED, "the cutover record was not acknowledged ("
                    + e.getMessage() + ") and may still land, and withdrawing it failed too ("
                    + withdrawal.getMessage() + "): run 'sextant cutover --group " + group + " --undo --apply', "
                    + "then the cutover again");
        }
        return refused(group, type, CutoverReport.FAILED, "the cutover record was not acknowledged (" + e.getMessage()
                + "): withdrawn, nothing recorded; run the command again");
    }

    /**
     * Waits until every instance holds each group cut over ({@code cutOver}), or none does; at the timeout, what was
     * still missing per group (empty: all agree).
     */
    Map<String, String> waitForInstances(Set<String> groups, boolean cutOver, Duration timeout) {
        long deadline = clock.millis() + timeout.toMillis();
        Set<String> open = new TreeSet<>(groups);
        Map<String, String> missing = new TreeMap<>();
        while (true) {
            try {
                List<SextantClient.InstanceCutovers> instances = instance.cutovers();
                for (String group : new ArrayList<>(open)) {
                    Optional<String> not = EveryInstanceHolds.missing(instances, group, cutOver);
                    if (not.isPresent()) {
                        missing.put(group, not.get());
                    } else {
                        missing.remove(group);
                        open.remove(group);
                    }
                }
            } catch (SextantClientException e) {
                open.forEach(group -> missing.put(group, e.getMessage())); // retried until the deadline
            }
            if (open.isEmpty() || clock.millis() >= deadline) {
                return missing;
            }
            try {
                Thread.sleep(INSTANCE_POLL_MS); // the instances' global threads take the records in within a poll
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return missing;
            }
        }
    }
}
