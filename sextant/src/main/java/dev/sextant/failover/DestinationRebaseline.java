package dev.sextant.failover;

import dev.sextant.config.SextantConfig;
import dev.sextant.config.Translation;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.OffsetSyncHistoryLoader;
import dev.sextant.state.OffsetSyncKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The operator's answer to a destination that is not the cluster Sextant wrote to so far: reads the cluster the
 * history pins and the one answering at {@code destination.bootstrap.servers}, and with {@code apply} pins the latter
 * (one record on the history topic, which every running instance reads). From then on the sync writes there again:
 * what it applied on the old cluster is found gone and written again, through the new mirrors' offset syncs (a mirror
 * with a new topic id forgets the old one's).
 */
public final class DestinationRebaseline {

    /**
     * @param pinned      the cluster the history pinned (null: none yet, the first instance pins what it sees)
     * @param destination the cluster answering now
     * @param applied     true when this run pinned {@code destination}
     */
    public record Result(String pinned, String destination, boolean applied) {

        /** True when the destination is not the pinned cluster (before this run's pin). */
        public boolean changed() {
            return pinned != null && !pinned.equals(destination);
        }
    }

    private final SextantConfig config;

    public DestinationRebaseline(SextantConfig config) {
        this.config = config;
    }

    /**
     * @throws IllegalStateException when a cluster does not answer within {@code timeout}, or with identity
     *                               translation (there is no history topic to pin in)
     */
    public Result run(boolean apply, Duration timeout) {
        if (config.translation() == Translation.IDENTITY) {
            throw new IllegalStateException("translation=identity keeps no offset-sync history, where the "
                    + "destination cluster is pinned: nothing to rebaseline");
        }
        String topic = config.applicationId() + "-offset-sync-history";
        InMemorySyncHistory history = OffsetSyncHistoryLoader.load(config.sourceClientConfig(), topic, timeout);
        String pinned = history.destinationCluster().orElse(null);
        String destination = ClusterIds.read(config.destinationClientConfig(), timeout, "the destination");
        boolean write = apply && !destination.equals(pinned);
        if (write) {
            pin(topic, destination, timeout);
        }
        return new Result(pinned, destination, write);
    }

    private void pin(String topic, String cluster, Duration timeout) {
        Map<String, Object> props = new HashMap<>(config.sourceClientConfig());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, OffsetSyncKeys.destinationClusterKey().get(),
                    OffsetSyncKeys.clusterValue(cluster))).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not write the pin to " + topic + " within " + timeout.toSeconds()
                    + " s: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
