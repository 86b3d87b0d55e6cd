package dev.sextant.testkit;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topic operations of {@link LocalClusters}, each through its own Admin client of one cluster (on secured clusters
 * the super user's): creating a topic, reading its end offsets, and waiting until MirrorMaker has copied a topic.
 */
final class ClusterTopics {

    private ClusterTopics() {
    }

    /** An Admin client for {@code cluster}; the caller closes it. */
    static Admin admin(LocalKafkaBroker cluster) {
        Map<String, Object> config = cluster.clientProperties();
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "sextant-local-" + cluster.name());
        return Admin.create(config);
    }

    /**
     * Creates a topic with replication factor 1 and waits until the broker confirmed it. A slow broker can create it
     * and time out the answer, and the Admin client's retry then finds it: a topic that exists with the requested
     * partition count counts as created.
     */
    static void create(LocalKafkaBroker cluster, String name, int partitions) {
        try (Admin admin = admin(cluster)) {
            try {
                admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all()
                        .get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException) || admin.describeTopics(List.of(name))
                        .allTopicNames().get(30, TimeUnit.SECONDS).get(name).partitions().size() != partitions) {
                    throw e;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create topic " + name + " on " + cluster.name(), e);
        }
    }

    /**
     * Latest offsets (high watermarks) of every partition of {@code topic}, by partition number.
     *
     * @throws UnknownTopicOrPartitionException if the topic does not exist
     */
    static Map<Integer, Long> endOffsets(LocalKafkaBroker cluster, String topic) {
        try (Admin admin = admin(cluster)) {
            return endOffsets(admin, topic);
        }
    }

    /**
     * Waits until {@code destination}'s {@code source.<topic>} has exactly {@code expectedEndOffsets} (partition to
     * end offset).
     *
     * @throws IllegalStateException with the last seen offsets if they did not match in time
     */
    static void awaitMirrored(LocalKafkaBroker destination, String topic, Map<Integer, Long> expectedEndOffsets,
                              Duration timeout) {
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        long deadline = System.nanoTime() + timeout.toNanos();
        Object lastSeen = "nothing (topic " + mirrored + " not found)";
        try (Admin admin = admin(destination)) {
            while (true) {
                try {
                    Map<Integer, Long> actual = endOffsets(admin, mirrored);
                    if (actual.equals(expectedEndOffsets)) {
                        return;
                    }
                    lastSeen = actual;
                } catch (UnknownTopicOrPartitionException e) {
                    // MirrorMaker has not created the topic yet (it looks for new topics every few seconds)
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("destination " + mirrored + " did not reach end offsets "
                            + expectedEndOffsets + " within " + timeout + "; last seen " + lastSeen);
                }
                Thread.sleep(200); // poll interval, not a wait for a condition
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + mirrored, e);
        }
    }

    private static Map<Integer, Long> endOffsets(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (TopicPartitionInfo partition : description.partitions()) {
                request.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
            }
            Map<Integer, Long> offsets = new HashMap<>();
            admin.listOffsets(request).all().get(10, TimeUnit.SECONDS)
                    .forEach((tp, info) -> offsets.put(tp.partition(), info.offset()));
            return offsets;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException unknown) {
                throw unknown;
            }
            throw new IllegalStateException("cannot read end offsets of " + topic, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out reading end offsets of " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading end offsets of " + topic, e);
        }
    }
}
