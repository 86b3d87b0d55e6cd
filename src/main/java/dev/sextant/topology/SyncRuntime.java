package dev.sextant.topology;

import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationView;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;

/**
 * The instance-wide collaborators every task of the topology shares: the destination view and applier, the
 * source's offsets for pruning, the meters. Tests pass in-memory ones.
 */
public record SyncRuntime(DestinationView view, ConsumerGroupApplier applier, SourceOffsets source,
                          SextantMetrics metrics) {
}
