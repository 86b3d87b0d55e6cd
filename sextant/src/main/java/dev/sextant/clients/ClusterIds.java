package dev.sextant.clients;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * A cluster's id as it says it now: what the marks name ({@code c=}), what the history pins, and what the rebaseline
 * commands compare. The one way Sextant asks for it, on either cluster.
 */
public final class ClusterIds {

    private ClusterIds() {
    }

    /** The answer to come, the request ending within {@code timeoutMs}. */
    public static KafkaFuture<String> describe(Admin admin, int timeoutMs) {
        return admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).clusterId();
    }

    /**
     * @param which names the cluster in the error ("the source")
     * @throws IllegalStateException  when it does not answer within {@code timeout}, or fails
     * @throws AuthorizationException the cluster's refusal, unwrapped: the caller names the ACL
     */
    public static String read(Admin admin, Duration timeout, String which) {
        try {
            return describe(admin, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException refused) {
                throw refused;
            }
            throw new IllegalStateException(which + " did not say its cluster id within " + timeout.toSeconds()
                    + " s: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(which + " did not say its cluster id within " + timeout.toSeconds()
                    + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
