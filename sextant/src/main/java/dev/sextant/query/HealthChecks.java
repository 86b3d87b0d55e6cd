package dev.sextant.query;

import java.util.Optional;

/**
 * What makes an instance unhealthy beyond Kafka Streams' own state, for {@code /health/live} and
 * {@code /health/ready}: each answers why, or empty while all is well.
 */
public interface HealthChecks {

    /** Why the instance should be restarted (its stream threads keep dying), or empty. */
    Optional<String> notLive();

    /** Why the instance cannot do its job now although it runs (the destination unreachable too long), or empty. */
    Optional<String> notReady();
}
