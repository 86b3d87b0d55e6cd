package dev.sextant.failover;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** A cluster's id as it says it now: what the rebaseline commands compare with what Sextant recorded. */
final class ClusterIds {

    private ClusterIds() {
    }

    /**
     * @param which names the cluster in the error ("the source")
     * @throws IllegalStateException when it does not answer within {@code timeout}
     */
    static String read(Map<String, Object> clientConfig, Duration timeout, String which) {
        try (Admin admin = Admin.create(clientConfig)) {
            return read(admin, timeout, which);
        }
    }

    /** As {@link #read(Map, Duration, String)}, through an Admin client the caller holds. */
    static String read(Admin admin, Duration timeout, String which) {
        try {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(which + " did not say its cluster id within " + timeout.toSeconds()
                    + " s: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
