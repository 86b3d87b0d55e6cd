package dev.sextant.apply;

import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which of the commits on the source that carry a Sextant's mark the sync takes in. In a chain A to B to C, the B-to-C
 * Sextant finds on B the A-to-B Sextant's writes: they are A's groups, to be forwarded to C. In a two-way setup
 * (A to B, B to A) the B-to-A Sextant finds the same writes on B, and sending them to A would return a group's
 * offsets to the cluster they came from. The two are told apart by the mark's source cluster ({@code c=}): a write
 * whose source is this Sextant's destination is the reverse direction's, and left out.
 *
 * <p>Invariant: a marked commit is taken in only when its mark reads whole, names a source cluster, that cluster is
 * none of the ids the destination is known by (as read now, and as pinned by the history), at least one such id is
 * known, and the mark is not this Sextant's own. Everything else that starts like a mark is left out, as every
 * release before this one left out every marked commit: a mark of an older release (no {@code c=}), a destination
 * whose id is not read yet (not answering since the start, or not allowed) or a mark that does not read. Leaving a
 * chain's write out only delays it to the upstream Sextant's next write of the group; taking a reverse write in is a
 * loop.
 */
public final class ChainedWrites {

    private final String ownPrefix;
    private final Supplier<? extends Collection<String>> destinationClusters;

    /**
     * @param destinationClusters the ids the destination is known by, asked only for a mark naming a cluster; empty
     *                            while none is known
     */
    public ChainedWrites(String applicationId, Supplier<? extends Collection<String>> destinationClusters) {
        this.ownPrefix = "sextant/" + applicationId;
        this.destinationClusters = destinationClusters;
    }

    /** True when the sync takes a commit with this metadata in: a consumer's commit, or a chain's write. */
    public boolean takenIn(String metadata) {
        return !OffsetOwnership.anySextant(metadata) || forwarded(metadata);
    }

    /** True when the metadata is the mark of a Sextant upstream in a chain: forwarded as a commit. */
    public boolean forwarded(String metadata) {
        if (!OffsetOwnership.anySextant(metadata) || metadata.equals(ownPrefix)
                || metadata.startsWith(ownPrefix + " ")) {
            return false;
        }
        Optional<String> from = OffsetOwnership.anyMark(metadata).map(OffsetOwnership.Mark::sourceCluster);
        if (from.isEmpty()) {
            return false;
        }
        Collection<String> destination = destinationClusters.get();
        return !destination.isEmpty() && !destination.contains(from.get());
    }
}
