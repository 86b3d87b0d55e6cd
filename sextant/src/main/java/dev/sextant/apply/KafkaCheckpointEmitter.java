package dev.sextant.apply;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CheckpointEmitter} that produces to MirrorMaker 2's checkpoints topic on the destination
 * ({@code <source alias>.checkpoints.internal} with the default replication policy), creating it compacted with one
 * partition, as MirrorMaker 2 does, when it does not exist.
 */
public final class KafkaCheckpointEmitter implements CheckpointEmitter {

    private static final Logger log = LoggerFactory.getLogger(KafkaCheckpointEmitter.class);

    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;

    public KafkaCheckpointEmitter(Map<String, Object> destinationClientConfig, String topic) {
        this.topic = topic;
        ensureTopic(destinationClientConfig, topic);
        Map<String, Object> config = new HashMap<>(destinationClientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 50);
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "sextant-checkpoints");
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void ensureTopic(Map<String, Object> clientConfig, String topic) {
        try (Admin admin = Admin.create(clientConfig)) {
            NewTopic spec = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(spec)).all().get(30, TimeUnit.SECONDS);
            log.info("Created the checkpoints topic {} on the destination", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the checkpoints topic " + topic
                        + " on the destination: " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot create the checkpoints topic " + topic
                    + " on the destination: no answer in 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void applied(String group, TopicPartition destination, long upstreamOffset, long downstreamOffset) {
        producer.send(new ProducerRecord<>(topic, CheckpointRecords.key(group, destination),
                CheckpointRecords.value(upstreamOffset, downstreamOffset, "")), (meta, err) -> {
                    if (err != null) {
                        log.warn("Cannot write the checkpoint of group {} {}: {}", group, destination, err.toString());
                    }
                });
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
