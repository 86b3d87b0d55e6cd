package dev.sextant.it;

import dev.sextant.client.FailoverSeek;
import dev.sextant.client.SextantClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * An application's failover with the client library, run in a child JVM whose classpath is what Maven gives an
 * application of {@code sextant-client} on its own (older) {@code kafka-clients}: it asks Sextant where the group
 * resumes and for one translation, then fails a consumer over both ways ({@link FailoverSeek#assignAndSeek} and
 * {@link FailoverSeek#seekOnFirstAssignment} with {@code subscribe}) and prints, per partition, where each read its
 * first record. Only APIs of kafka-clients 3.0 are used here.
 *
 * <p>Arguments: Sextant's URL, the destination's bootstrap servers, the group, the source topic, then the source
 * offset of each partition (0, 1, ...) to translate. Output lines: {@code kafka-clients <jar URL>},
 * {@code offset <topic> <partition> <offset>}, {@code translate <partition> <destination offset>},
 * {@code assign|subscribe <partition> <offset> <value>}, and {@code done}.
 */
public final class ClientLibraryProbe {

    private static final Duration READ = Duration.ofSeconds(60);

    private ClientLibraryProbe() {
    }

    public static void main(String[] args) {
        String url = args[0];
        String bootstrap = args[1];
        String group = args[2];
        String topic = args[3];
        // the jar the consumer classes come from names the version: the application's, not this build's
        System.out.println("kafka-clients " + KafkaConsumer.class.getProtectionDomain().getCodeSource().getLocation());
        SextantClient sextant = SextantClient.builder(url).deadline(Duration.ofSeconds(30)).build();
        Map<TopicPartition, Long> offsets = sextant.offsets(group);
        offsets.forEach((tp, o) -> System.out.println("offset " + tp.topic() + " " + tp.partition() + " " + o));
        for (int p = 0; p + 4 < args.length; p++) {
            long source = Long.parseLong(args[p + 4]);
            System.out.println("translate " + p + " " + sextant.translate(topic, p, source).destinationOffset());
        }
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, group + "-probe-assign")) {
            FailoverSeek.assignAndSeek(consumer, offsets);
            printFirstRecords("assign", consumer, offsets.size());
        }
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, group + "-probe-subscribe")) {
            List<String> topics = new ArrayList<>();
            offsets.keySet().forEach(tp -> {
                if (!topics.contains(tp.topic())) {
                    topics.add(tp.topic());
                }
            });
            consumer.subscribe(topics, FailoverSeek.seekOnFirstAssignment(consumer, offsets));
            printFirstRecords("subscribe", consumer, offsets.size());
        }
        System.out.println("done");
    }

    /** A consumer that, without a seek, would start at the end: a first record read is where the seek put it. */
    private static KafkaConsumer<String, String> consumer(String bootstrap, String group) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("group.id", group);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "latest");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private static void printFirstRecords(String how, Consumer<String, String> consumer, int partitions) {
        Map<TopicPartition, ConsumerRecord<String, String>> first = new HashMap<>();
        long deadline = System.nanoTime() + READ.toNanos();
        while (first.size() < partitions) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(how + ": no record read on " + partitions + " partitions within "
                        + READ + ", only on " + first.keySet());
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                first.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r);
            }
        }
        List<TopicPartition> sorted = new ArrayList<>(first.keySet());
        Collections.sort(sorted, (a, b) -> Integer.compare(a.partition(), b.partition()));
        for (TopicPartition tp : sorted) {
            ConsumerRecord<String, String> r = first.get(tp);
            System.out.println(how + " " + tp.partition() + " " + r.offset() + " " + r.value());
        }
    }
}
