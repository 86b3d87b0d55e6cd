package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.mirror.Checkpoint;
import org.junit.jupiter.api.Test;

class CheckpointRecordsTest {

    @Test
    void mirrorMakersOwnReaderReadsWhatSextantWrites() {
        TopicPartition destination = new TopicPartition("source.orders", 3);
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("source.checkpoints.internal", 0, 0,
                CheckpointRecords.key("billing", destination), CheckpointRecords.value(1_234, 1_200, ""));

        Checkpoint read = Checkpoint.deserializeRecord(record);

        assertEquals(new Checkpoint("billing", destination, 1_234, 1_200, ""), read);
    }
}
