package dev.sextant.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Whether MirrorMaker copied a caught-up topic 1:1, which replay is measured against: the exact destination
 * equivalent of source offset {@code s} is then {@code s}.
 */
final class MirrorCheck {

    private MirrorCheck() {
    }

    /**
     * MirrorMaker copied the fresh topic 1:1: the same end offsets on both sides, and the mirror's last record of
     * each partition is the source record with that number (its value is its source offset).
     *
     * @return the check's outcome as the results state it: "1:1 (end offsets ...)" or "NOT 1:1: why"
     */
    static String of(Session session, String topic, int partitions) {
        Map<Integer, Long> source = session.clusters.endOffsets(session.clusters.source(), topic);
        Map<Integer, Long> mirrored;
        try {
            session.clusters.awaitMirrored(topic, source, Duration.ofSeconds(60));
            mirrored = source;
        } catch (IllegalStateException e) {
            return "NOT 1:1: " + e.getMessage();
        }
        Map<String, Object> props = new HashMap<>(session.clusters.destination().clientProperties());
        boolean ok = true;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            for (int p = 0; p < partitions; p++) {
                long last = mirrored.get(p) - 1;
                if (last < 0) {
                    continue;
                }
                TopicPartition tp = new TopicPartition("source." + topic, p);
                consumer.assign(List.of(tp));
                consumer.seek(tp, last);
                ConsumerRecord<byte[], byte[]> record = null;
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (record == null && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        record = r;
                        break;
                    }
                }
                ok &= record != null && record.offset() == last
                        && Long.parseLong(new String(record.value(), StandardCharsets.UTF_8)) == last;
            }
        }
        return ok ? "1:1 (end offsets " + source + ")" : "NOT 1:1: last record differs";
    }
}
