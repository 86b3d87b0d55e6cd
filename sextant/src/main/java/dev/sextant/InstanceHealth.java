package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.SourceClusterChange;
import dev.sextant.query.HealthChecks;
import java.util.Optional;

/**
 * This instance's health beyond Kafka Streams' own state: not live while stream threads keep dying (a restart would
 * clear it); degraded, said in the readiness body but not in its status, while the source refuses Sextant something
 * or the destination has been unreachable for longer than {@code health.destination.timeout.ms}.
 */
final class InstanceHealth implements HealthChecks {

    private final StreamThreadFailures threadFailures;
    private final AccessDenials denials;
    private final DestinationView view;
    private final SourceClusterChange sourceChange;
    private final long destinationTimeoutMs;

    InstanceHealth(StreamThreadFailures threadFailures, AccessDenials denials, DestinationView view,
                   SourceClusterChange sourceChange, long destinationTimeoutMs) {
        this.sourceChange = sourceChange;
        this.threadFailures = threadFailures;
        this.denials = denials;
        this.view = view;
        this.destinationTimeoutMs = destinationTimeoutMs;
    }

    @Override
    public Optional<String> notLive() {
        return threadFailures.problem();
    }

    @Override
    public Optional<String> degraded() {
        Optional<String> changed = view.clusterChange();
        if (changed.isPresent()) {
            return changed;
        }
        Optional<String> sourceChanged = sourceChange.problem();
        if (sourceChanged.isPresent()) {
            return sourceChanged;
        }
        Optional<String> denied = denials.problem();
        if (denied.isPresent()) {
            return denied;
        }
        long down = view.unreachableForMs();
        return down > 0 && down >= destinationTimeoutMs
                ? Optional.of("the destination has been unreachable for " + down / 1000 + " s: " + view.lastError()
                        + " (positions are kept and applied once it is back)")
                : Optional.empty();
    }
}
