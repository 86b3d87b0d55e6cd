package dev.sextant.query;

import dev.sextant.config.HostAndPort;
import dev.sextant.state.CoordinatorPartitioner;
import dev.sextant.state.PositionStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@link GroupRouter} over Kafka Streams' metadata: {@code queryMetadataForKey} with the group coordinator's
 * partitioner finds the instance whose active task holds a group's {@code __consumer_offsets} partition.
 */
public final class StreamsGroupRouter implements GroupRouter {

    private final Supplier<KafkaStreams> streams;
    private final HostAndPort self;
    private final HostInfo selfInfo;
    /** The topic the tasks read commits from: {@code __consumer_offsets}, or Sextant's own in admin mode. */
    private final String commitsTopic;

    /**
     * @param streams the Kafka Streams client, or null before it exists
     * @param self    this instance's advertised address, as given to Kafka Streams' {@code application.server}
     */
    public StreamsGroupRouter(Supplier<KafkaStreams> streams, HostAndPort self) {
        this(streams, self, Topic.GROUP_METADATA_TOPIC_NAME);
    }

    /**
     * @param commitsTopic the topic whose partitions the tasks are numbered by: {@code __consumer_offsets}, or with
     *                     {@code source.offsets.read=admin} Sextant's own topic of the source's commits
     */
    public StreamsGroupRouter(Supplier<KafkaStreams> streams, HostAndPort self, String commitsTopic) {
        this.commitsTopic = commitsTopic;
        this.streams = streams;
        this.self = self;
        this.selfInfo = new HostInfo(self.host(), self.port());
    }

    @Override
    public Owner ownerOf(String group) {
        KafkaStreams running = running();
        KeyQueryMetadata metadata;
        try {
            metadata = running.queryMetadataForKey(PositionStore.NAME, group, new CoordinatorPartitioner<>());
        } catch (RuntimeException e) {
            throw QueryException.unavailable("the owner of group '" + group + "' is not known yet ("
                    + e.getClass().getSimpleName() + "); retry", e);
        }
        if (metadata == null || metadata.partition() < 0 || metadata.activeHost() == null
                || metadata.activeHost().equals(HostInfo.unavailable())) {
            throw QueryException.unavailable("the owner of group '" + group + "' is not known yet "
                    + "(rebalancing); retry");
        }
        HostInfo active = metadata.activeHost();
        return active.equals(selfInfo) ? new Local(metadata.partition())
                : new Remote(new HostAndPort(active.host(), active.port()));
    }

    @Override
    public HostAndPort self() {
        return self;
    }

    @Override
    public void requireRunning() {
        running();
    }

    @Override
    public String state() {
        KafkaStreams client = streams.get();
        return client == null ? "NOT_STARTED" : client.state().name();
    }

    @Override
    public int partitionCount() {
        KafkaStreams running = running();
        CoordinatorPartitioner<Object> probe = new CoordinatorPartitioner<>();
        try {
            running.queryMetadataForKey(PositionStore.NAME, "", probe);
        } catch (RuntimeException e) {
            throw QueryException.unavailable("the partitions of " + commitsTopic + " are not known yet; retry", e);
        }
        if (probe.numPartitions() <= 0) {
            throw QueryException.unavailable("the partitions of " + commitsTopic + " are not known yet; retry");
        }
        return probe.numPartitions();
    }

    @Override
    public List<Integer> localPartitions() {
        KafkaStreams running = running();
        Set<Integer> partitions = new TreeSet<>();
        for (ThreadMetadata thread : running.metadataForLocalThreads()) {
            thread.activeTasks().forEach(task -> partitions.addAll(offsetsPartitions(task.topicPartitions())));
        }
        return List.copyOf(partitions);
    }

    @Override
    public List<Views.InstanceView> instances() {
        KafkaStreams running = running();
        List<Views.InstanceView> out = new ArrayList<>();
        for (StreamsMetadata metadata : running.metadataForAllStreamsClients()) {
            HostInfo host = metadata.hostInfo();
            out.add(new Views.InstanceView(new HostAndPort(host.host(), host.port()).toString(), host.equals(selfInfo),
                    List.copyOf(offsetsPartitions(metadata.topicPartitions())),
                    List.copyOf(offsetsPartitions(metadata.standbyTopicPartitions()))));
        }
        out.sort(Comparator.comparing(Views.InstanceView::address));
        return out;
    }

    private Set<Integer> offsetsPartitions(Set<TopicPartition> partitions) {
        Set<Integer> out = new TreeSet<>();
        for (TopicPartition tp : partitions) {
            if (tp.topic().equals(commitsTopic)) {
                out.add(tp.partition());
            }
        }
        return out;
    }

    private KafkaStreams running() {
        KafkaStreams client = streams.get();
        if (client == null) {
            throw QueryException.unavailable("Kafka Streams is not started yet; retry");
        }
        KafkaStreams.State state = client.state();
        if (state != KafkaStreams.State.RUNNING) {
            throw QueryException.unavailable("Kafka Streams is " + state + " (rebalancing or restoring); retry");
        }
        return client;
    }
}
