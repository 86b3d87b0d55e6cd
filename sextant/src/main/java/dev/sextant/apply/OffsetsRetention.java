package dev.sextant.apply;

import static dev.sextant.apply.KafkaFutures.toCompletable;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.config.ConfigResource;

/** The destination's {@code offsets.retention.minutes}, as one of its brokers' config says. */
final class OffsetsRetention {

    private static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";

    private OffsetsRetention() {
    }

    /**
     * The retention in milliseconds, read from the first broker the cluster description lists; -1 when there is no
     * broker or the config has no value.
     *
     * @param timeoutMs the bound of each of the two reads (the cluster's brokers, then the broker's config)
     */
    static CompletableFuture<Long> read(Admin admin, int timeoutMs) {
        return toCompletable(admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).nodes())
                .thenCompose(nodes -> {
                    if (nodes.isEmpty()) {
                        return CompletableFuture.completedFuture(-1L);
                    }
                    ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER,
                            Integer.toString(nodes.iterator().next().id()));
                    return toCompletable(admin.describeConfigs(List.of(broker),
                            new DescribeConfigsOptions().timeoutMs(timeoutMs)).values().get(broker))
                            .thenApply(config -> {
                                ConfigEntry entry = config.get(OFFSETS_RETENTION_MINUTES);
                                return entry == null || entry.value() == null ? -1L
                                        : Long.parseLong(entry.value()) * 60_000L;
                            });
                });
    }
}
