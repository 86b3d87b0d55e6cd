package dev.sextant.query;

import java.util.Optional;

/**
 * What makes an instance unhealthy beyond Kafka Streams' own state, for {@code /health/live} and
 * {@code /health/ready}: each answers why, or empty while all is well.
 *
 * <p>Readiness means "this process can serve" (Kubernetes' convention, and Kafka Connect's): a broken dependency, the
 * destination unreachable or an ACL the source refuses, is reported in the readiness body, the status page and the
 * metrics ({@code sextant_destination_up}), not by turning every instance NotReady, which would stall rollouts and
 * node drains while the instances still serve queries from their stores.
 */
public interface HealthChecks {

    /** Why the instance should be restarted (its stream threads keep dying), or empty. */
    Optional<String> notLive();

    /**
     * Why the instance cannot sync now although it runs and serves (the destination unreachable too long, the source
     * refusing an ACL), or empty: said in the readiness body, with a 200.
     */
    Optional<String> degraded();
}
