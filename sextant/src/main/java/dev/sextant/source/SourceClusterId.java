package dev.sextant.source;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * The source cluster's id, read once at start: every offset Sextant writes names it ({@code c=} in the mark), so that
 * a replaced source cluster, whose {@code __consumer_offsets} starts again at 0, is told apart from the one the
 * destination's offsets came from.
 */
public final class SourceClusterId {

    private static final long TIMEOUT_MS = 30_000;

    private SourceClusterId() {
    }

    /** @throws IllegalStateException when the source does not say it within 30 s */
    public static String read(Map<String, Object> sourceClientConfig) {
        try (Admin admin = Admin.create(sourceClientConfig)) {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT_MS)).clusterId()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime; // an authorization error is told apart by the caller
            }
            throw new IllegalStateException("cannot read the source cluster's id ("
                    + sourceClientConfig.get("bootstrap.servers") + "): " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the source cluster did not say its id within " + TIMEOUT_MS / 1000
                    + " s (" + sourceClientConfig.get("bootstrap.servers") + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
