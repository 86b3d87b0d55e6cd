package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.LogRange;
import dev.sextant.testing.InMemoryDestination;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PartitionLogsTest {

    private final InMemoryDestination destination = new InMemoryDestination();
    private final PartitionLogs logs = new PartitionLogs(destination);

    @Test
    void readsBothEndsOfEveryPartitionOfTheTopicsCounted() {
        destination.topic("orders", 2);
        destination.starts.put(new TopicPartition("orders", 1), 40L);
        destination.ends.put(new TopicPartition("orders", 1), 90L);
        assertEquals(LogRange.UNKNOWN, logs.of("orders", 1), "not before a read");

        logs.read(Map.of("orders", 2)).join();
        assertEquals(new LogRange(40, 90), logs.of("orders", 1));
        assertEquals(new LogRange(0, InMemoryDestination.MIRROR_END), logs.of("orders", 0));
        assertEquals(LogRange.UNKNOWN, logs.of("orders", 2), "no such partition");
    }

    @Test
    void anEndReadWithoutItsStartHasAnUnknownStart() {
        // the topic is gone by the time the starts are read: the end alone
        logs.read(Map.of("orders", 1)).join();
        assertEquals(new LogRange(-1, InMemoryDestination.MIRROR_END), logs.of("orders", 0));
    }

    @Test
    void aFailedReadKeepsTheLogsLastRead() {
        destination.topic("orders", 1);
        logs.read(Map.of("orders", 1)).join();
        destination.unreachable = true;
        assertTrue(logs.read(Map.of("orders", 1)).isCompletedExceptionally());
        assertEquals(new LogRange(0, InMemoryDestination.MIRROR_END), logs.of("orders", 0));
    }
}
