package dev.sextant.apply;

/**
 * Which destination offsets the consumer-group applier may write over, beyond moving forward an offset Sextant wrote
 * for an older commit of the same source cluster.
 *
 * <p>Invariant: with neither, the applier never moves an offset backwards and never writes a group that holds an
 * offset Sextant did not write; what each flag allows is still subject to the applier's other guards (a mark of a
 * newer commit or of another source cluster, an exact floor, an active group).
 *
 * @param followRewinds move an offset Sextant wrote backwards when the source group went back
 *                      ({@code sync.rewind=follow-source})
 * @param adoptForward  take over an offset Sextant did not write when the translation is at or above it
 *                      ({@code sync.foreign.offsets=adopt-forward}); otherwise such a group is refused
 */
public record OverwritePolicy(boolean followRewinds, boolean adoptForward) {

    /** The configuration's defaults: {@code sync.rewind=follow-source}, {@code sync.foreign.offsets=refuse}. */
    public static final OverwritePolicy DEFAULTS = new OverwritePolicy(true, false);
}
