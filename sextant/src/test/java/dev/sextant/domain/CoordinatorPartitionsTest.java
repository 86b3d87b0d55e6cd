package dev.sextant.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class CoordinatorPartitionsTest {

    @Test
    void placesAGroupWhereKafkasCoordinatorDoes() {
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            String group = Long.toString(random.nextLong(), 36) + "-" + i;
            int partitions = 1 + random.nextInt(100);
            assertEquals(Utils.abs(group.hashCode()) % partitions,
                    CoordinatorPartitions.partitionFor(group, partitions), group);
        }
        assertEquals(Integer.MIN_VALUE, "polygenelubricants".hashCode());
        assertEquals(0, CoordinatorPartitions.partitionFor("polygenelubricants", 50));
    }
}
