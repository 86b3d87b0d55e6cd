package dev.sextant.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class FailoverSeekTest {

    private static final TopicPartition P0 = new TopicPartition("source.orders", 0);
    private static final TopicPartition P1 = new TopicPartition("source.orders", 1);

    @Test
    void assignsExactlyThePartitionsAndSeeksEach() {
        MockConsumer<String, String> consumer = new MockConsumer<>("latest");
        FailoverSeek.assignAndSeek(consumer, Map.of(P0, 1_230L, P1, 77L));
        assertEquals(Set.of(P0, P1), consumer.assignment());
        assertEquals(1_230L, consumer.position(P0));
        assertEquals(77L, consumer.position(P1));
    }

    @Test
    void refusesASubscribedConsumer() {
        MockConsumer<String, String> consumer = new MockConsumer<>("latest");
        consumer.subscribe(List.of("source.orders"));
        assertThrows(IllegalStateException.class, () -> FailoverSeek.assignAndSeek(consumer, Map.of(P0, 1L)));
    }

    @Test
    void refusesANegativeOffset() {
        assertThrows(IllegalArgumentException.class,
                () -> FailoverSeek.assignAndSeek(new MockConsumer<String, String>("latest"), Map.of(P0, -1L)));
    }

    @Test
    void seeksOnTheFirstAssignmentOnly() {
        MockConsumer<String, String> consumer = new MockConsumer<>("latest");
        consumer.assign(List.of(P0));
        ConsumerRebalanceListener listener = FailoverSeek.seekOnFirstAssignment(consumer, Map.of(P0, 500L));
        listener.onPartitionsAssigned(List.of(P0));
        assertEquals(500L, consumer.position(P0));
        consumer.seek(P0, 900L);
        listener.onPartitionsAssigned(List.of(P0)); // a later rebalance: committed offsets rule
        assertEquals(900L, consumer.position(P0));
    }
}
