package dev.sextant.source;

import dev.sextant.clients.ClusterIds;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The source cluster's id, read once at start: every offset Sextant writes names it ({@code c=} in the mark), so that
 * a replaced source cluster, whose {@code __consumer_offsets} starts again at 0, is told apart from the one the
 * destination's offsets came from.
 */
public final class SourceClusterId {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SourceClusterId() {
    }

    /**
     * @throws IllegalStateException when the source does not say it within 30 s (an authorization error is thrown
     *                               as it is: the caller tells it apart)
     */
    public static String read(Map<String, Object> sourceClientConfig) {
        try (Admin admin = Admin.create(sourceClientConfig)) {
            return ClusterIds.read(admin, TIMEOUT, "the source cluster ("
                    + sourceClientConfig.get("bootstrap.servers") + ")");
        }
    }
}
