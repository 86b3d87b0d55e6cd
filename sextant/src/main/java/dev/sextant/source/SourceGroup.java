package dev.sextant.source;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * A group as the source cluster shows it at one moment: its type, its state and members, and its committed offsets
 * (share groups: their start offsets).
 *
 * @param type    {@code consumer}, {@code classic}, {@code streams} or {@code share}; {@code consumer} for a group the
 *                listing does not show (a "simple" group of {@code assign()} consumers, which only commits)
 * @param state   the coordinator's state, {@link GroupState#EMPTY} when not listed
 * @param members who is in the group ({@code clientId/host}), when the type can be described; may be empty while
 *                {@link #active()} is true
 * @param metadata per partition, the metadata of the committed offset where it has any (a Sextant's mark tells its
 *                 write from a consumer's commit)
 */
public record SourceGroup(String group, String type, GroupState state, List<String> members,
                   Map<TopicPartition, Long> offsets, Map<TopicPartition, String> metadata) {

    /** A group whose offsets carry no metadata. */
    public SourceGroup(String group, String type, GroupState state, List<String> members,
                       Map<TopicPartition, Long> offsets) {
        this(group, type, state, members, offsets, Map.of());
    }

    /** True when the group has members on the source: its consumers still run there. */
    public boolean active() {
        return !members.isEmpty() || live(state);
    }

    /** A state in which a group has members (not empty, dead or unknown). */
    public static boolean live(GroupState state) {
        return state != GroupState.EMPTY && state != GroupState.DEAD && state != GroupState.UNKNOWN;
    }
}
