package dev.sextant.query;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads of this instance's own state stores: the store half of the interactive queries. Nothing here routes or
 * forwards; every read throws {@link QueryException#unavailable} when the store cannot be read right now (the task
 * moved, or is restoring).
 */
public interface LocalStores {

    /** The group as held by the local active task of {@code __consumer_offsets} partition {@code partition}. */
    Optional<Views.GroupDetail> group(String group, int partition);

    /**
     * Where the group's consumers seek on the destination ({@code /v1/groups/{group}/offsets}), each offset inside
     * the destination partition's log where this instance knows it.
     */
    default Optional<Views.GroupOffsets> offsets(String group, int partition) {
        return group(group, partition).map(detail -> GroupViews.offsets(detail, GroupViews.NO_LOGS));
    }

    /** Every group of the local active task of {@code __consumer_offsets} partition {@code partition}. */
    List<Views.GroupSummary> groups(int partition);

    /**
     * The groups this instance holds cut over (its copy of the cutovers topic, which every instance reads whole): the
     * sync of this instance moves none of them.
     */
    Set<String> cutOverGroups();

    /** One translation from the offset-sync history (every instance holds all of it), or identity. */
    Optional<Views.TranslationView> translate(String topic, int partition, long offset);
}
