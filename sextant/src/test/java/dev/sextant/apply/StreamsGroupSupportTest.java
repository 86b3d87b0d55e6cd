package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.StreamsGroupSupport.Verdict;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StreamsGroupSupportTest {

    private static final DestinationFeatures KAFKA_4_4 = new DestinationFeatures(1, 33);
    private static final DestinationFeatures KAFKA_4_3 = new DestinationFeatures(1, 30);
    private static final DestinationFeatures KAFKA_4_2 = new DestinationFeatures(1, 29);
    private static final DestinationFeatures KAFKA_4_1_STREAMS_ENABLED = new DestinationFeatures(1, 27);
    private static final DestinationFeatures NO_STREAMS = new DestinationFeatures(0, 33);

    @Test
    void destinationsOf43OrLaterTakeStreamsGroups() {
        assertEquals(Verdict.SUPPORTED, StreamsGroupSupport.of(KAFKA_4_4, Optional.empty()).verdict());
        assertEquals(Verdict.SUPPORTED, StreamsGroupSupport.of(KAFKA_4_3, Optional.empty()).verdict());
    }

    @Test
    void nothingIsDecidedBeforeTheFeaturesAreRead() {
        assertEquals(Verdict.UNKNOWN, StreamsGroupSupport.of(DestinationFeatures.UNKNOWN, Optional.of("4.4.0"))
                .verdict());
    }

    @Test
    void aDestinationWithoutStreamsGroupsIsRefusedWithWhatToDo() {
        StreamsGroupSupport support = StreamsGroupSupport.of(NO_STREAMS, Optional.of("4.4.0"));
        assertTrue(support.refused());
        assertTrue(support.detail().contains("streams.version"), support.detail());
    }

    @Test
    void kafka42IsRefusedUnlessTheOperatorSaysItIs421OrLater() {
        StreamsGroupSupport unknown = StreamsGroupSupport.of(KAFKA_4_2, Optional.empty());
        assertTrue(unknown.refused(), "4.2.0 and 4.2.1 look alike: refused");
        assertTrue(unknown.detail().contains("KAFKA-20254"), unknown.detail());
        assertTrue(unknown.detail().contains("sync.streams.destination.kafka.version"), unknown.detail());

        assertEquals(Verdict.SUPPORTED, StreamsGroupSupport.of(KAFKA_4_2, Optional.of("4.2.1")).verdict());
        assertEquals(Verdict.SUPPORTED, StreamsGroupSupport.of(KAFKA_4_2, Optional.of("4.2.2")).verdict());
        StreamsGroupSupport broken = StreamsGroupSupport.of(KAFKA_4_2, Optional.of("4.2.0"));
        assertTrue(broken.refused());
        assertTrue(broken.detail().contains("it says 4.2.0"), broken.detail());
    }

    @Test
    void aStatedVersionDoesNotOverruleBrokersOlderThan42() {
        StreamsGroupSupport support = StreamsGroupSupport.of(KAFKA_4_1_STREAMS_ENABLED, Optional.of("4.2.1"));
        assertTrue(support.refused());
        assertTrue(support.detail().contains("older than 4.2"), support.detail());
    }

    @Test
    void versionsAreMajorMinorPatch() {
        assertTrue(StreamsGroupSupport.validVersion("4.2.1"));
        assertFalse(StreamsGroupSupport.validVersion("4.2"));
        assertFalse(StreamsGroupSupport.validVersion("4.2.1-rc1"));
    }
}
