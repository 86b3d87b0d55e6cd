package dev.sextant.clients;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * What a {@link TopicLog} asks of a producer is a configuration the producer takes, whatever the timeout and the
 * client's {@code linger.ms}: the producer checks its settings when it is built (one it refused was "Failed to
 * construct kafka producer" for {@code rebaseline --apply} at its 30 s default: delivery.timeout.ms below
 * linger.ms + request.timeout.ms).
 */
class TopicLogTest {

    @Test
    void theProducerTakesItsSettingsWhateverTheTimeoutAndLinger() {
        List<Map<String, Object>> clients = List.of(Map.of("bootstrap.servers", "127.0.0.1:1"),
                Map.of("bootstrap.servers", "127.0.0.1:1", "linger.ms", "100"));
        for (Duration timeout : List.of(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(2))) {
            for (Map<String, Object> client : clients) {
                TopicLog log = new TopicLog(client, "t", "a cluster", timeout);
                assertDoesNotThrow(() -> new KafkaProducer<>(log.producerConfig(), new ByteArraySerializer(),
                        new ByteArraySerializer()).close(Duration.ZERO), timeout + " " + client);
            }
        }
    }
}
