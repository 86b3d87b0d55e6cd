package dev.sextant.cutover;

import dev.sextant.source.CommitWatch;
import dev.sextant.source.SourceGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether nobody moves a group on the source any more: the proof a cutover needs before it takes the group from the
 * sync. A pure verdict over what was seen: the group as the source showed it when the check began and now, and the
 * commits of it that {@code __consumer_offsets} carried in between.
 *
 * <ol>
 *   <li>members on the source, then or now: {@link Status#ACTIVE_ON_SOURCE} (its consumers still run there);</li>
 *   <li>any commit seen, or committed offsets that differ (a consumer that {@code assign()}s its partitions commits
 *       without ever joining): {@link Status#STILL_COMMITTING}, naming what changed;</li>
 *   <li>else the fence holds.</li>
 * </ol>
 */
final class FenceCheck {

    enum Status { ACTIVE_ON_SOURCE, STILL_COMMITTING }

    /** Why the fence does not hold, in words an operator acts on. */
    record Breach(Status status, String message) {
    }

    private FenceCheck() {
    }

    /** Members alone: checked before the watch begins, so a running group is refused without waiting. */
    static Optional<Breach> members(SourceGroup group) {
        if (!group.active()) {
            return Optional.empty();
        }
        String who = group.members().isEmpty() ? "" : ": " + String.join(", ", group.members().stream().limit(5)
                .toList()) + (group.members().size() > 5 ? " and " + (group.members().size() - 5) + " more" : "");
        return Optional.of(new Breach(Status.ACTIVE_ON_SOURCE, "the group has members on the source (state "
                + group.state() + (group.members().isEmpty() ? "" : ", " + group.members().size() + " member(s)")
                + who + "): stop its consumers there first"));
    }

    /**
     * @param before  the group when the watch began
     * @param after   the group now
     * @param commits its commits seen in {@code __consumer_offsets} since the watch began (none for a share group,
     *                whose start offsets are compared instead)
     * @param watchedMs how long it was watched
     */
    static Optional<Breach> check(SourceGroup before, SourceGroup after, List<CommitWatch.Commit> commits,
                                  long watchedMs) {
        Optional<Breach> active = members(after);
        if (active.isPresent()) {
            return active;
        }
        List<String> changed = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : after.offsets().entrySet()) {
            Long was = before.offsets().get(e.getKey());
            if (was == null || !was.equals(e.getValue())) {
                changed.add(e.getKey() + " " + (was == null ? "none" : was) + " -> " + e.getValue());
            }
        }
        if (changed.isEmpty() && commits.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder message = new StringBuilder("the group has no members on the source, yet ");
        if (!commits.isEmpty()) {
            message.append(commits.size()).append(" commit(s) of it arrived within ").append(watchedMs)
                    .append(" ms (latest: ").append(commits.get(commits.size() - 1)).append(")");
        }
        if (!changed.isEmpty()) {
            message.append(commits.isEmpty() ? "" : ", and ").append("its committed offsets moved (")
                    .append(String.join(", ", changed.stream().limit(5).toList()))
                    .append(changed.size() > 5 ? ", ..." : "").append(")");
        }
        message.append(": a consumer that assign()s its partitions, or a job, still commits for it; stop it, then run "
                + "the cutover again");
        return Optional.of(new Breach(Status.STILL_COMMITTING, message.toString()));
    }
}
