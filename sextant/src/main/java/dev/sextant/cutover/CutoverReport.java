package dev.sextant.cutover;

import dev.sextant.state.CutoverRecord;
import java.util.List;

/**
 * What a {@code sextant cutover} run did, or in a dry run would do, per group; the JSON of {@code -o json}.
 *
 * @param applied      false for a dry run
 * @param undo         true for {@code --undo}
 * @param fenceCheckMs how long the source was watched for commits
 */
public record CutoverReport(boolean applied, boolean undo, long fenceCheckMs, List<GroupResult> groups,
                            long tookMs) {

    /** The statuses of a group other than a refusal's reason. */
    public static final String CUT_OVER = "CUT_OVER";
    public static final String ACTIVE_ON_SOURCE = "ACTIVE_ON_SOURCE";
    public static final String STILL_COMMITTING = "STILL_COMMITTING";
    /** The sync did not write the group's last commit within the timeout. */
    public static final String NOT_SYNCED = "NOT_SYNCED";
    /** Sextant knows no commit of the group. */
    public static final String UNKNOWN_GROUP = "UNKNOWN_GROUP";
    /** {@code --undo --apply}: the group is the sync's again. */
    public static final String RETURNED = "RETURNED";
    /** {@code --undo} of a group that was not cut over. */
    public static final String NOT_CUT_OVER = "NOT_CUT_OVER";
    /** Something failed on the way (a cluster did not answer): run the command again. */
    public static final String FAILED = "FAILED";

    /**
     * One group.
     *
     * @param status     {@code CUT_OVER}, {@code ACTIVE_ON_SOURCE}, {@code STILL_COMMITTING}, {@code NOT_SYNCED}, a
     *                   guard's reason ({@code GROUP_ACTIVE}, {@code DESTINATION_DIVERGED}, ...), {@code RETURNED}...
     * @param ok         true when the group is, or in a dry run would be, where the command takes it
     * @param cutAt      when it was cut over, or null
     * @param worstBound the largest replay bound of its partitions on the destination (0: exact), or null
     * @param partitions where it stands on the destination (empty when it was not cut over)
     */
    public record GroupResult(String group, String groupType, String status, boolean ok, String message, Long cutAt,
                              Long worstBound, List<CutoverRecord.Partition> partitions) {

        /** A group the command did not take where it was asked to, and why. */
        static GroupResult refused(String group, String type, String status, String message) {
            return new GroupResult(group, type, status, false, message, null, null, List.of());
        }
    }

    /** How a group's translation stands on the destination, as a clause of a result's message. */
    static String boundText(long bound) {
        return bound == 0 ? ", exact (replay 0)" : ", bounded: at most " + bound + " record(s) replayed on a "
                + "partition";
    }

    /** True when every selected group is, or would be, where the command takes it (exit 0). */
    public boolean clean() {
        return groups.stream().allMatch(GroupResult::ok);
    }
}
