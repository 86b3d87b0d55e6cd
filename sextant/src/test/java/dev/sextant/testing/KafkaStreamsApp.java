package dev.sextant.testing;

import dev.sextant.testkit.LocalKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A stateless Kafka Streams application, on the classic or the streams protocol (KIP-1071), that records every value
 * it processes, by partition: what an application resuming on a mirror reads, and whether it reads a record twice.
 */
public final class KafkaStreamsApp implements AutoCloseable {

    private final Map<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
    private final KafkaStreams streams;
    private final Path stateDir;

    /**
     * Starts the application on {@code cluster}, reading {@code topic} from its committed offsets (from the earliest
     * record without: a replay the caller sees).
     *
     * @param protocol {@code classic} or {@code streams}: Kafka Streams' {@code group.protocol}
     */
    public KafkaStreamsApp(LocalKafkaBroker cluster, String applicationId, String protocol, String topic)
            throws Exception {
        stateDir = Files.createTempDirectory("kstreams-" + protocol);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topic, Consumed.with(Serdes.String(), Serdes.String()))
                .process(() -> new Processor<String, String, Void, Void>() {
                    private ProcessorContext<Void, Void> context;

                    @Override
                    public void init(ProcessorContext<Void, Void> context) {
                        this.context = context;
                    }

                    @Override
                    public void process(Record<String, String> record) {
                        int partition = context.recordMetadata().orElseThrow().partition();
                        seen.computeIfAbsent(partition, p -> Collections.synchronizedList(new ArrayList<>()))
                                .add(Integer.parseInt(record.value()));
                    }
                });
        Properties props = new Properties();
        props.putAll(cluster.clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // without committed offsets it would read from the start: a replay the test sees
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        streams = new KafkaStreams(builder.build(), props);
        streams.start();
    }

    /** True once each of the {@code partitions} partitions' last value read is {@code end - 1}. */
    public boolean readUpTo(int partitions, int end) {
        Map<Integer, List<Integer>> now = seen();
        return now.size() == partitions && now.values().stream().allMatch(v -> !v.isEmpty()
                && v.get(v.size() - 1) == end - 1);
    }

    public Map<Integer, List<Integer>> seen() {
        Map<Integer, List<Integer>> copy = new HashMap<>();
        seen.forEach((p, values) -> {
            synchronized (values) {
                copy.put(p, List.copyOf(values));
            }
        });
        return copy;
    }

    @Override
    public void close() throws IOException {
        // leaves the group, as a stopped application's instances do once their session ends
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        SextantProcess.deleteRecursively(stateDir);
    }
}
