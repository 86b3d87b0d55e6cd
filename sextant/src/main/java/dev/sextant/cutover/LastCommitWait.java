package dev.sextant.cutover;

import static dev.sextant.cutover.CutoverReport.GroupResult.refused;

import dev.sextant.apply.ChainedWrites;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.source.CommitWatch;
import dev.sextant.source.SourceGroup;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * The cutover's second step: waiting, after the fence, until the running sync reports each group's last commit on
 * the destination ({@link SyncedCheck}), while the source is still watched for commits that break the fence. A group
 * leaves the wait synced (exact, or bounded once {@link #PROOF_GRACE} passed), refused (a guard of the
 * sync, a late commit), or not synced at the timeout.
 */
final class LastCommitWait {

    /** How long a bounded translation may take to be proven exact before it is taken with its bound. */
    static final Duration PROOF_GRACE = Duration.ofSeconds(10);

    private final SextantClient instance;
    private final Clock clock;
    private final Consumer<String> progress;
    private final Predicate<String> syncedTopic;
    private final ChainedWrites chained;

    /**
     * @param syncedTopic the source topics this Sextant moves ({@code topics.include}, {@code topics.exclude}, not a
     *                    mirror of the destination's own topic unless translated home: {@code TopicRoutes#moved})
     * @param chained     which Sextant writes on the source the sync takes in (a chain's), as the sync tells them
     */
    LastCommitWait(SextantClient instance, Clock clock, Consumer<String> progress, Predicate<String> syncedTopic,
                   ChainedWrites chained) {
        this.instance = instance;
        this.clock = clock;
        this.progress = progress;
        this.syncedTopic = syncedTopic;
        this.chained = chained;
    }

    /**
     * Asks the running sync until each group's last commit is on the destination (exact, or bounded past the grace),
     * a guard refuses it, a commit breaks the fence, or the timeout passes. In a dry run it asks once.
     */
    Map<String, SyncedCheck.Verdict> await(Map<String, SourceGroup> groups, CommitWatch watch,
                                           PlannedCutover.Options options,
                                           Map<String, CutoverReport.GroupResult> results,
                                           Map<String, String> known) {
        Map<String, SyncedCheck.Verdict> ready = new TreeMap<>();
        if (groups.isEmpty()) {
            return ready;
        }
        progress.accept("waiting for the sync to write the last commit of " + groups.size() + " group(s)");
        long deadline = clock.millis() + options.timeout().toMillis();
        Map<String, Long> syncedSince = new HashMap<>();
        Map<String, SyncedCheck.Verdict> last = new HashMap<>();
        Set<String> open = new TreeSet<>(groups.keySet());
        while (!open.isEmpty()) {
            for (String group : new ArrayList<>(open)) {
                SyncedCheck.Verdict verdict = syncedOrBreach(group, groups.get(group), watch, results, known);
                if (verdict == null) {
                    open.remove(group);
                    continue;
                }
                if (verdict.state() != SyncedCheck.State.UNANSWERED || !last.containsKey(group)) {
                    last.put(group, verdict); // an unanswered ask keeps what the instance said before
                }
                if (verdict.state() == SyncedCheck.State.SYNCED) {
                    long since = syncedSince.computeIfAbsent(group, g -> clock.millis());
                    if (verdict.worstBound() == 0 || clock.millis() - since >= PROOF_GRACE.toMillis()
                            || !options.apply()) {
                        ready.put(group, verdict);
                        open.remove(group);
                    }
                } else if (verdict.state() != SyncedCheck.State.UNANSWERED) {
                    syncedSince.remove(group); // an unanswered ask does not restart the grace
                }
            }
            if (!options.apply()) {
                open.forEach(g -> ready.put(g, last.get(g)));
                return ready;
            }
            if (open.isEmpty() || clock.millis() >= deadline) {
                break;
            }
            watch.poll(Duration.ofMillis(500));
        }
        timedOut(open, last, ready, options, results, known);
        return ready;
    }

    /** The groups still open at the timeout: a bounded one is taken with its bound, the others are not synced. */
    private static void timedOut(Set<String> open, Map<String, SyncedCheck.Verdict> last,
                                 Map<String, SyncedCheck.Verdict> ready, PlannedCutover.Options options,
                                 Map<String, CutoverReport.GroupResult> results, Map<String, String> known) {
        for (String group : open) {
            SyncedCheck.Verdict verdict = last.get(group);
            if (verdict != null && verdict.state() == SyncedCheck.State.SYNCED) {
                ready.put(group, verdict); // bounded, and the grace did not pass before the timeout
            } else {
                results.put(group, refused(group, known.get(group), CutoverReport.NOT_SYNCED, "the sync did not "
                        + "write the group's last commit within " + options.timeout().toSeconds() + " s"
                        + (verdict == null ? "" : " (" + verdict.detail() + ")") + "; nothing recorded"));
            }
        }
    }

    /**
     * What the sync reports of the group now; null when the group got its result instead (a commit broke the fence,
     * or a guard of the sync refuses it).
     */
    private SyncedCheck.Verdict syncedOrBreach(String group, SourceGroup fenced, CommitWatch watch,
                                               Map<String, CutoverReport.GroupResult> results,
                                               Map<String, String> known) {
        if (!watch.commits(group).isEmpty()) {
            results.put(group, refused(group, known.get(group), CutoverReport.STILL_COMMITTING,
                    "a commit of the group arrived after the fence check (" + watch.commits(group).get(0)
                            + "): something still commits for it; stop it, then run the cutover again"));
            return null;
        }
        SyncedCheck.Verdict verdict;
        try {
            verdict = SyncedCheck.check(synced(fenced), instance.group(group).partitions(),
                    "share".equals(fenced.type()));
        } catch (SextantClientException e) {
            return new SyncedCheck.Verdict(SyncedCheck.State.UNANSWERED, null,
                    "the Sextant instance did not answer: " + e.getMessage(), 0);
        }
        if (verdict.state() == SyncedCheck.State.REFUSED) {
            results.put(group, refused(group, known.get(group), verdict.reason(), verdict.detail()
                    + ": the sync refuses to write the group, and so does the cutover"));
            return null;
        }
        return verdict;
    }

    /**
     * The group's fenced offsets of the partitions this Sextant syncs: not those whose last commit is a Sextant's
     * write the sync does not take in (any but a chain's: {@link ChainedWrites}); {@link UnmovedPartitions} settles
     * them.
     */
    Map<TopicPartition, Long> synced(SourceGroup group) {
        Map<TopicPartition, Long> out = new LinkedHashMap<>();
        group.offsets().forEach((tp, offset) -> {
            if (syncedTopic.test(tp.topic()) && chained.takenIn(group.metadata().get(tp))) {
                out.put(tp, offset);
            }
        });
        return out;
    }
}
