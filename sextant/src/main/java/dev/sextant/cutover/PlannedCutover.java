package dev.sextant.cutover;

import static dev.sextant.cutover.CutoverReport.GroupResult.refused;
import static dev.sextant.cutover.CutoverReport.boundText;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.client.SextantClient;
import dev.sextant.command.CommandContext;
import dev.sextant.command.CommandStep;
import dev.sextant.command.CommandStep.Cluster;
import dev.sextant.command.CutoverLedger;
import dev.sextant.config.ConfigKeys;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SourceOffsetsReading;
import dev.sextant.config.TopicRoutes;
import dev.sextant.source.CommitWatch;
import dev.sextant.source.SourceGroup;
import dev.sextant.source.SourceSession;
import dev.sextant.state.CutoverRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * A planned cutover with the source alive ({@code sextant cutover}): groups move to the destination and the running
 * sync stops moving them, once it is proven that nobody moves them on the source any more. Per group, in this order:
 *
 * <ol>
 *   <li>the fence: no members on the source, and for {@code --fence-check} no commit of the group in the source's
 *       {@code __consumer_offsets} (a consumer that {@code assign()}s its partitions commits without joining) and no
 *       change of its committed offsets ({@link FenceCheck});</li>
 *   <li>the last commit on the destination: the running sync reports every partition it moves applied at the fenced
 *       offset ({@link SyncedCheck}), exact where the history proves it (bounded ones are given
 *       {@link LastCommitWait#PROOF_GRACE} to become exact, then taken with their bound reported); its guards refuse
 *       as they refuse the sync ({@link LastCommitWait}); a partition the sync never moves is settled before, at
 *       once ({@link UnmovedPartitions}: home already, or the group refused);</li>
 *   <li>the destination, read directly: the group has no members there, is of the same type, and holds exactly what
 *       the sync wrote, under Sextant's mark;</li>
 *   <li>the record on Sextant's cutovers topic, and every running instance holding the group cut over: from then on
 *       the sync never moves it from the source ({@link CutoverRecording}, for the whole batch at once);</li>
 *   <li>the fence once more: a commit that arrived meanwhile withdraws the record, and the group is refused
 *       {@code STILL_COMMITTING}.</li>
 * </ol>
 *
 * <p>Invariants: nothing is written to the destination here (the sync wrote it, through its guards); a group is
 * recorded only after every check passed; running it again is safe (a group already cut over is reported so, one
 * refused is tried again from the start).
 */
public final class PlannedCutover {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final long SOURCE_REREAD_MS = 1_000;

    /**
     * @param apply      record the cutover (default: only show what would happen)
     * @param fenceCheck how long the source is watched for commits of the groups
     * @param timeout    how long the sync may take to write the groups' last commits, and each cluster to answer
     */
    public record Options(boolean apply, Duration fenceCheck, Duration timeout) {
    }

    private final CommandContext context;
    private final CommandStep step;
    private final SextantClient instance;
    private final Clock clock;
    private final Consumer<String> progress;
    private final LastCommitWait lastCommits;
    private final UnmovedPartitions unmoved;
    private final CutoverRecording recording;

    public PlannedCutover(CommandContext context, SextantClient instance, Clock clock, Consumer<String> progress) {
        this.context = context;
        this.step = context.step();
        this.instance = instance;
        this.clock = clock;
        this.progress = progress;
        TopicRoutes routes = TopicRoutes.of(context.config());
        this.unmoved = new UnmovedPartitions(context, routes);
        this.lastCommits = new LastCommitWait(instance, clock, progress, routes::moved, unmoved.chained());
        this.recording = new CutoverRecording(instance, clock, progress, unmoved, step);
    }

    /**
     * Cuts the selected groups over.
     *
     * @param named the groups named on the command line ({@code --group}, repeated), each reported even when Sextant
     *              does not know it; empty with a pattern
     */
    public CutoverReport cutOver(Predicate<String> selected, Set<String> named, Options options) {
        if (!SourceOffsetsReading.of(context.config()).fromLog()) {
            throw new InvalidConfigurationException(ConfigKeys.SOURCE_OFFSETS_READ_CONFIG, "admin", "cutover fences "
                    + "a group by watching its commits arrive in __consumer_offsets, which Sextant does not read with "
                    + "'" + ConfigKeys.SOURCE_OFFSETS_READ_CONFIG + "=admin'. Fix: stop the group's consumers, wait "
                    + ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG + " plus sync.interval.ms, check the group on "
                    + "the destination and use 'sextant failover' (docs/failover.md)");
        }
        long started = clock.millis();
        Map<String, CutoverReport.GroupResult> results = new TreeMap<>();
        CutoverLedger ledger = context.cutovers();
        SourceSession source = context.source();
        progress.accept("reading the groups cut over so far");
        step.reading(Cluster.SOURCE, "read the groups cut over so far (" + context.topics().cutovers() + ")");
        Map<String, CutoverRecord> cut = ledger.read();
        Map<String, String> known = knownGroups(selected, named);
        Set<String> candidates = new TreeSet<>(known.keySet());
        cut.keySet().stream().filter(g -> named.isEmpty() ? selected.test(g) : named.contains(g))
                .forEach(candidates::add);
        candidates.addAll(named);
        Set<String> remaining = new TreeSet<>();
        for (String group : candidates) {
            if (cut.containsKey(group)) {
                results.put(group, alreadyCut(cut.get(group)));
            } else if (!known.containsKey(group)) {
                results.put(group, refused(group, "consumer", CutoverReport.UNKNOWN_GROUP, "Sextant knows no "
                        + "commit of this group (not in groups.include, or it never committed on the source)"));
            } else {
                remaining.add(group);
            }
        }
        if (!remaining.isEmpty()) {
            step.reading(Cluster.SOURCE, "watch __consumer_offsets for commits of the groups");
            try (CommitWatch watch = source.watchCommits(remaining)) {
                move(remaining, known, source, watch, ledger, options, results);
            }
        }
        return new CutoverReport(options.apply(), false, options.fenceCheck().toMillis(),
                List.copyOf(results.values()), clock.millis() - started);
    }

    /** Gives the selected groups back to the sync ({@code --undo}). */
    public CutoverReport undo(Predicate<String> selected, Set<String> named, boolean apply, Duration timeout) {
        long started = clock.millis();
        Map<String, CutoverReport.GroupResult> results = new TreeMap<>();
        CutoverLedger ledger = context.cutovers();
        step.reading(Cluster.SOURCE, "read the groups cut over so far (" + context.topics().cutovers() + ")");
        Map<String, CutoverRecord> cut = ledger.read();
        Set<String> groups = new TreeSet<>();
        cut.keySet().stream().filter(g -> named.isEmpty() ? selected.test(g) : named.contains(g))
                .forEach(groups::add);
        groups.addAll(named);
        for (String group : groups) {
            CutoverRecord record = cut.get(group);
            if (record == null) {
                results.put(group, new CutoverReport.GroupResult(group, null, CutoverReport.NOT_CUT_OVER, true,
                        "not cut over: the sync moves it", null, null, List.of()));
            } else if (!apply) {
                results.put(group, new CutoverReport.GroupResult(group, record.groupType(),
                        CutoverReport.CUT_OVER, true, "cut over at " + Instant.ofEpochMilli(record.cutAt())
                        + "; --apply gives it back to the sync", record.cutAt(), null, record.partitions()));
            } else {
                step.writing(Cluster.SOURCE, "give " + group + " back to the sync");
                ledger.withdraw(group);
                boolean seen = recording.waitForInstances(Set.of(group), false, timeout).isEmpty();
                results.put(group, new CutoverReport.GroupResult(group, record.groupType(),
                        CutoverReport.RETURNED, true, "given back to the sync: its next commit on the source is "
                        + "written to the destination, unless the group has members there"
                        + (seen ? "" : " (not every instance shows it yet)"), null, null, List.of()));
            }
        }
        return new CutoverReport(apply, true, 0, List.copyOf(results.values()), clock.millis() - started);
    }

    /** The fence, the wait for the sync, the checks of the destination and the record, for every group left. */
    private void move(Set<String> groups, Map<String, String> known, SourceSession source,
                      CommitWatch watch, CutoverLedger ledger, Options options,
                      Map<String, CutoverReport.GroupResult> results) {
        step.reading(Cluster.SOURCE, "read the groups' members and committed offsets");
        Map<String, SourceGroup> before = source.read(groups);
        for (String group : groups) {
            FenceCheck.members(before.get(group)).ifPresent(b -> results.put(group,
                    refused(group, known.get(group), b.status().name(), b.message())));
            if (!results.containsKey(group) && before.get(group).offsets().isEmpty()) {
                results.put(group, refused(group, known.get(group), CutoverReport.NOT_SYNCED, "the group has no "
                        + "committed offsets on the source: nothing to cut over"));
            }
        }
        step.reading(Cluster.DESTINATION, "settle the partitions the sync never moves (home already, or refused)");
        Map<String, List<CutoverRecord.Partition>> home = unmoved(open(groups, results), before, results, known);
        Map<String, SourceGroup> fenced = fence(open(groups, results), before, source, watch, options, results,
                known);
        step.reading(Cluster.SOURCE, "watch for commits while the sync writes the groups' last ones");
        Map<String, SyncedCheck.Verdict> synced = lastCommits.await(fenced, watch, options, results, known);
        if (!options.apply()) {
            synced.forEach((group, verdict) -> results.put(group, verdict.state() == SyncedCheck.State.UNANSWERED
                    ? refused(group, known.get(group), CutoverReport.FAILED, verdict.detail() + ": nothing is known of "
                    + "the sync; run the command again once it answers") : new CutoverReport.GroupResult(group,
                    known.get(group), CutoverReport.CUT_OVER, true, verdict.state() == SyncedCheck.State.SYNCED
                    ? "would be cut over: the destination holds its last commit" + boundText(verdict.worstBound())
                    : "would be cut over once the sync wrote its last commit (" + verdict.detail() + ")",
                    null, verdict.state() == SyncedCheck.State.SYNCED ? verdict.worstBound() : null, List.of())));
            return;
        }
        if (synced.isEmpty()) {
            return;
        }
        step.reading(Cluster.SOURCE, "read its cluster id (named in the cutover record)");
        String cluster = source.clusterId();
        step.reading(Cluster.DESTINATION, "list its groups (the groups must have no members there)");
        try (DestinationSession destination = context.destination(cluster, false)) {
            // one listing for the batch: a listing per group cost a whole listing of the destination each
            Map<String, DestinationGroup> listed = destination.groups();
            Map<String, SourceGroup> batch = new TreeMap<>();
            Map<String, Map<TopicPartition, Long>> moved = new TreeMap<>();
            synced.keySet().forEach(group -> {
                batch.put(group, fenced.get(group));
                moved.put(group, lastCommits.synced(fenced.get(group)));
            });
            results.putAll(recording.record(batch, known, moved, home, cluster, destination, listed, watch, source,
                    ledger, options));
        }
    }

    /**
     * The partitions of each group the sync never moves ({@link UnmovedPartitions}): those home already, by group; a
     * group that cannot be cut over gets its result.
     */
    private Map<String, List<CutoverRecord.Partition>> unmoved(Set<String> groups, Map<String, SourceGroup> before,
                                                              Map<String, CutoverReport.GroupResult> results,
                                                              Map<String, String> known) {
        Map<String, List<CutoverRecord.Partition>> home = new TreeMap<>();
        for (String group : groups) {
            UnmovedPartitions.Verdict verdict = unmoved.judge(before.get(group));
            if (verdict.refusal() != null) {
                results.put(group, refused(group, known.get(group), CutoverReport.NOT_SYNCED, verdict.refusal()));
            } else {
                home.put(group, verdict.home());
            }
        }
        return home;
    }

    /** The groups no result was given yet. */
    private static Set<String> open(Set<String> groups, Map<String, CutoverReport.GroupResult> results) {
        Set<String> open = new TreeSet<>(groups);
        open.removeAll(results.keySet());
        return open;
    }

    /** Watches the source for {@code --fence-check}; returns the groups that held still, as they stand now. */
    private Map<String, SourceGroup> fence(Set<String> groups, Map<String, SourceGroup> before,
                                           SourceSession source, CommitWatch watch, Options options,
                                           Map<String, CutoverReport.GroupResult> results,
                                           Map<String, String> known) {
        if (groups.isEmpty()) {
            return Map.of();
        }
        progress.accept("watching the source for commits of " + groups.size() + " group(s) for "
                + options.fenceCheck().toMillis() + " ms");
        step.reading(Cluster.SOURCE, "fence the groups (watch their commits for --fence-check)");
        long start = clock.millis();
        long end = start + options.fenceCheck().toMillis();
        long reread = start + SOURCE_REREAD_MS;
        Set<String> open = new TreeSet<>(groups);
        Map<String, SourceGroup> now = Map.of();
        do {
            watch.poll(Duration.ofMillis(Math.max(0, Math.min(POLL.toMillis(), end - clock.millis()))));
            boolean last = clock.millis() >= end;
            if (last || clock.millis() >= reread) {
                reread = clock.millis() + SOURCE_REREAD_MS;
                now = source.read(open);
                for (String group : new ArrayList<>(open)) {
                    var breach = FenceCheck.check(before.get(group), now.get(group), watch.commits(group),
                            clock.millis() - start);
                    if (breach.isPresent()) {
                        results.put(group, refused(group, known.get(group), breach.get().status().name(),
                                breach.get().message()));
                        open.remove(group);
                    }
                }
            }
            if (last) {
                break;
            }
        } while (!open.isEmpty());
        Map<String, SourceGroup> held = new TreeMap<>();
        for (String group : open) {
            held.put(group, now.get(group));
        }
        return held;
    }

    /** The groups the running Sextant knows, with their types, of those selected. */
    private Map<String, String> knownGroups(Predicate<String> selected, Set<String> named) {
        Map<String, String> known = new TreeMap<>();
        for (SextantClient.GroupSummary summary : instance.groups()) {
            if (named.isEmpty() ? selected.test(summary.group()) : named.contains(summary.group())) {
                known.put(summary.group(), summary.groupType());
            }
        }
        return known;
    }

    private static CutoverReport.GroupResult alreadyCut(CutoverRecord record) {
        long worst = record.partitions().stream().mapToLong(p -> p.bound() == null ? 0 : p.bound()).max()
                .orElse(0);
        return new CutoverReport.GroupResult(record.group(), record.groupType(), CutoverReport.CUT_OVER, true,
                "cut over at " + Instant.ofEpochMilli(record.cutAt()) + " (already)", record.cutAt(), worst,
                record.partitions());
    }
}
