package dev.sextant.source;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics Sextant writes on the source cluster (dead letters, offset-sync history, share positions) when
 * they are missing. Done before Kafka Streams starts: a global store whose topic is missing stops the client, and
 * brokers usually have topic auto-creation off. A topic that already exists is left as it is.
 */
public final class SourceTopicCreator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SourceTopicCreator.class);
    private static final long TIMEOUT_S = 30;

    private final Admin admin;
    private final Object bootstrap;

    public SourceTopicCreator(Map<String, Object> sourceClientConfig) {
        this.admin = Admin.create(sourceClientConfig);
        this.bootstrap = sourceClientConfig.get("bootstrap.servers");
    }

    /**
     * Partitions of {@code __consumer_offsets}, or, on a cluster where no group ever ran, the broker's
     * {@code offsets.topic.num.partitions} (what the topic will have when it is created).
     */
    public int consumerOffsetsPartitions() {
        return call("read the source cluster's __consumer_offsets layout", () -> {
            try {
                return admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME)).allTopicNames()
                        .get(TIMEOUT_S, TimeUnit.SECONDS).get(Topic.GROUP_METADATA_TOPIC_NAME).partitions().size();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            Node broker = admin.describeCluster().nodes().get(TIMEOUT_S, TimeUnit.SECONDS).iterator().next();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker.id()));
            return Integer.parseInt(admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS)
                    .get(resource).get("offsets.topic.num.partitions").value());
        });
    }

    /** Creates each topic that does not exist yet; one that exists is not checked or changed. */
    public void createMissing(List<NewTopic> topics) {
        for (NewTopic topic : topics) {
            call("create topic " + topic.name() + " on the source cluster", () -> {
                try {
                    admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
                    log.info("Created topic {} on the source cluster", topic.name());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicAuthorizationException denied
                            && denied.unauthorizedTopics().isEmpty()) {
                        // the broker names no topic when it refuses a creation: name it, for the message
                        throw new ExecutionException(new TopicAuthorizationException(
                                "not authorized to create topic " + topic.name(), Set.of(topic.name())));
                    }
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
                return null;
            });
        }
    }

    /**
     * What an existing topic is: its partition count, its {@code cleanup.policy} and its {@code delete.retention.ms}
     * (each null when not readable).
     */
    public record Existing(int partitions, String cleanupPolicy, Long deleteRetentionMs) {

        public Existing(int partitions, String cleanupPolicy) {
            this(partitions, cleanupPolicy, null);
        }
    }

    /**
     * The named topics that exist, with their partition count and cleanup policy. The policy is read with
     * DescribeConfigs, which Sextant's ACLs do not include: where the broker refuses it, it is null.
     */
    public Map<String, Existing> describe(Set<String> names) {
        Map<String, Integer> partitions = call("describe Sextant's topics on the source cluster", () -> {
            Map<String, Integer> out = new HashMap<>();
            admin.describeTopics(names).topicNameValues().forEach((name, future) -> {
                try {
                    out.put(name, future.get(TIMEOUT_S, TimeUnit.SECONDS).partitions().size());
                } catch (ExecutionException | TimeoutException e) {
                    log.debug("Cannot describe topic {}: {}", name, e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            return out;
        });
        Map<String, Existing> out = new HashMap<>();
        partitions.forEach((name, count) -> out.put(name, existing(name, count)));
        return out;
    }

    private Existing existing(String topic, int partitions) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config configs = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS)
                    .get(resource);
            ConfigEntry policy = configs.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            ConfigEntry tombstones = configs.get(TopicConfig.DELETE_RETENTION_MS_CONFIG);
            return new Existing(partitions, policy == null ? null : policy.value(),
                    tombstones == null || tombstones.value() == null ? null : Long.valueOf(tombstones.value()));
        } catch (ExecutionException | TimeoutException | NumberFormatException e) {
            log.debug("Cannot read the configuration of {} (DescribeConfigs): {}", topic, e.toString());
            return new Existing(partitions, null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Existing(partitions, null, null);
        }
    }

    @Override
    public void close() {
        admin.close();
    }

    private interface AdminCall<T> {
        T run() throws ExecutionException, InterruptedException, TimeoutException;
    }

    private <T> T call(String what, AdminCall<T> call) {
        try {
            return call.run();
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("The source cluster did not answer within " + TIMEOUT_S + " s ("
                    + bootstrap + ") trying to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }
}
