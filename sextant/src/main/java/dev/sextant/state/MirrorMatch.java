package dev.sextant.state;

import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import org.apache.kafka.common.Uuid;

/**
 * Whether a source topic's offset-sync history describes the mirror topic the destination holds now: the one verdict
 * of the running sync (before it takes an id for a history that records none), {@code failover --from-source} and
 * failback. The history's downstream offsets are offsets of one mirror topic; a mirror created again (deleted and
 * mirrored anew, or on a destination rebuilt at the same address) holds other records at them, so a translation
 * through the old syncs points into a log that is gone.
 *
 * <ul>
 *   <li>A recorded mirror id (every history written since Sextant records them): the history describes the mirror
 *       with that id and no other ({@link #byId}).</li>
 *   <li>No recorded id (a history an earlier release wrote): judged by its syncs ({@link #bySyncs}). MirrorMaker 2
 *       emits the sync (U, D) once it copied the source's record U to the mirror's offset D, so the mirror's log
 *       reaches past D, and its record at D is the copy of the source's at U. A mirror whose log ends at or below a
 *       partition's newest sync, or holds another record at D, is another log.
 *       A mirror is created again as a whole, so one partition that contradicts decides for the topic. Every
 *       partition's newest sync proven by its records: the history describes the mirror. Nothing contradicts but
 *       not every partition was proven (records deleted or not readable, or not read: interpolation other than
 *       {@code verified}): {@link Verdict#UNPROVEN}, which each caller weighs and says.</li>
 * </ul>
 *
 * <p>Log ends alone miss a mirror created again that grew past the old newest sync (a re-seed from the source's log
 * start, long before the check): that is what the records are for. Pure.
 */
public final class MirrorMatch {

    /**
     * Kafka's null topic id (no topic has it): a recorded id of this value says nothing of the mirror, as none
     * recorded.
     */
    public static final Uuid NOT_RECORDED = Uuid.ZERO_UUID;

    public enum Verdict {
        /** The history describes the mirror the destination holds. */
        MATCHES,
        /** Another mirror: its translations point into a log that is gone. */
        RESEEDED,
        /** No id recorded; nothing contradicts the history, but nothing proves it either. */
        UNPROVEN
    }

    /** @param reason why, for an operator; null when it matches */
    public record Result(Verdict verdict, String reason) {

        static final Result MATCHES = new Result(Verdict.MATCHES, null);
    }

    private MirrorMatch() {
    }

    /** True when {@code id} is a mirror id a history recorded (not absent, not {@link #NOT_RECORDED}). */
    public static boolean recorded(Uuid id) {
        return id != null && !NOT_RECORDED.equals(id);
    }

    /**
     * @param recorded the mirror id the history recorded ({@link #recorded})
     * @param seen     the mirror topic's id on the destination now
     */
    public static Result byId(String topic, String mirror, Uuid recorded, Uuid seen) {
        return recorded.equals(seen) ? Result.MATCHES : new Result(Verdict.RESEEDED, "mirror topic " + mirror
                + " was created again (topic id " + recorded + " is now " + seen
                + "): the offset-sync history of " + topic + " describes the old mirror, whose log is gone");
    }

    /**
     * @param newest  the newest sync of each partition the topic has history of
     * @param ends    the mirror's log end per partition; a partition left out was not read (nothing is judged of
     *                it: a read that failed, or a partition the mirror lacks, on which nothing is written anyway)
     * @param records per partition, what the records say of its newest sync as an interval of one record
     *                ({@link IntervalEvidence#verdict} of the sync with itself); a partition left out was not read
     */
    public static Result bySyncs(String topic, String mirror, Collection<OffsetSyncPoint> newest,
                                 Map<Integer, Long> ends, Map<Integer, IntervalEvidence.Verdict> records) {
        String other = "mirror topic " + mirror + " is not the log the offset-sync history of " + topic
                + " describes (the history records no mirror id: an earlier release wrote it): ";
        boolean proven = true;
        for (OffsetSyncPoint sync : newest.stream().sorted(Comparator.comparingInt(OffsetSyncPoint::partition))
                .toList()) {
            Long end = ends.get(sync.partition());
            if (end == null) {
                proven = false; // not read: a failed read must not forget a good history
                continue;
            }
            if (sync.downstreamOffset() >= end) {
                return new Result(Verdict.RESEEDED, other + "the newest sync of partition " + sync.partition()
                        + " points at offset " + sync.downstreamOffset() + ", and the mirror's log ends at " + end);
            }
            IntervalEvidence.Verdict read = records.getOrDefault(sync.partition(), IntervalEvidence.Verdict.UNKNOWN);
            if (read == IntervalEvidence.Verdict.REFUTED) {
                return new Result(Verdict.RESEEDED, other + "its record at offset " + sync.downstreamOffset()
                        + " of partition " + sync.partition() + " is not the copy of the source's record at "
                        + sync.upstreamOffset() + " that the history's newest sync describes");
            }
            proven &= read == IntervalEvidence.Verdict.PROVEN;
        }
        return proven ? Result.MATCHES : new Result(Verdict.UNPROVEN, "the offset-sync history of " + topic
                + " records no id of mirror topic " + mirror + " (an earlier release wrote it): its newest syncs lie "
                + "inside the mirror's log, but their records were not read on both clusters, so nothing proves they "
                + "describe this mirror rather than an older one at the same name");
    }

    /**
     * What the records say of a sync, as an interval of one record, from {@code evidence}; {@code UNKNOWN} from
     * evidence that reads nothing ({@link IntervalEvidence#TRUSTED} proves every interval without a read).
     */
    public static IntervalEvidence.Verdict records(IntervalEvidence evidence, OffsetSyncPoint sync) {
        return readsRecords(evidence) ? evidence.verdict(sync, sync) : IntervalEvidence.Verdict.UNKNOWN;
    }

    /** False for the evidence of {@code translation.interpolation=off} and {@code unverified}: no record is read. */
    public static boolean readsRecords(IntervalEvidence evidence) {
        return evidence != IntervalEvidence.NONE && evidence != IntervalEvidence.TRUSTED;
    }
}
