package dev.sextant.apply;

import java.time.Clock;
import java.util.Optional;

/**
 * The source cluster a group's destination offsets name when it is not this one, as the sync last met it: the source
 * was replaced (a new cluster starts {@code __consumer_offsets} again at 0, so its commits cannot be ordered against
 * the old marks), or {@code source.bootstrap.servers} names another cluster. Such a group is refused
 * ({@code SOURCE_CHANGED}) until an operator releases the old marks with {@code sextant rebaseline --source --apply};
 * what this holds is said by the gauge {@code sextant_source_cluster_changed} and the readiness detail for as long as
 * refusals keep coming (they are retried every 10 s).
 */
public final class SourceClusterChange {

    /** A refusal is news this long: several retries of the group that met it. */
    static final long FRESH_MS = 60_000;

    private final Clock clock;
    private volatile String otherCluster;
    private volatile String thisCluster;
    private volatile long seenAt = -1;

    public SourceClusterChange(Clock clock) {
        this.clock = clock;
    }

    /** A group's destination offsets were found written from {@code other}, while this source is {@code current}. */
    void seen(String other, String current) {
        otherCluster = other;
        thisCluster = current;
        seenAt = clock.millis();
    }

    /** What an operator is told while groups are refused for it; empty when none was within the last minute. */
    public Optional<String> problem() {
        long at = seenAt;
        if (at < 0 || clock.millis() - at > FRESH_MS) {
            return Optional.empty();
        }
        return Optional.of("destination offsets were written from source cluster " + otherCluster + ", and this "
                + "source is cluster " + thisCluster + " (replaced, or source.bootstrap.servers names another "
                + "cluster): those groups are not written until an operator runs 'sextant rebaseline --source "
                + "--apply'");
    }
}
