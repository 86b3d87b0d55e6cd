package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.testing.InMemoryDestination;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DestinationSettingsTest {

    private static final long NOW = 1_000_000;

    private final InMemoryDestination destination = new InMemoryDestination();
    private final DestinationSettings settings = new DestinationSettings(destination, Optional.empty());

    @Test
    void readsAtFirstThenOncePerIntervalAndAfterAnOutage() {
        assertEquals(StreamsGroupSupport.UNKNOWN, settings.streamsGroups(), "not before a read");
        assertEquals(-1, settings.offsetsRetentionMs());
        destination.offsetsRetentionMs = 600_000;
        settings.readIfDue(NOW);
        assertEquals(StreamsGroupSupport.Verdict.SUPPORTED, settings.streamsGroups().verdict());
        assertEquals(600_000, settings.offsetsRetentionMs());

        destination.offsetsRetentionMs = 60_000; // an operator's rolling restart
        settings.readIfDue(NOW + DestinationSettings.READ_INTERVAL_MS - 1);
        assertEquals(600_000, settings.offsetsRetentionMs(), "not read again yet");
        settings.readIfDue(NOW + DestinationSettings.READ_INTERVAL_MS);
        assertEquals(60_000, settings.offsetsRetentionMs());

        destination.offsetsRetentionMs = 120_000;
        settings.readAtNextRefresh(); // a failed refresh
        settings.readIfDue(NOW + DestinationSettings.READ_INTERVAL_MS + 1);
        assertEquals(120_000, settings.offsetsRetentionMs(), "read again at once");
    }

    @Test
    void aFailedReadKeepsWhatWasRead() {
        destination.offsetsRetentionMs = 600_000;
        settings.readIfDue(NOW);
        destination.unreachable = true;
        settings.readAtNextRefresh();
        settings.readIfDue(NOW + 1);
        assertEquals(600_000, settings.offsetsRetentionMs());
        assertEquals(StreamsGroupSupport.Verdict.SUPPORTED, settings.streamsGroups().verdict());
    }

    @Test
    void streamsGroupsAreRefusedOnADestinationWithoutThem() {
        destination.features = new DestinationFeatures(0, 27);
        settings.readIfDue(NOW);
        assertEquals(StreamsGroupSupport.Verdict.REFUSED, settings.streamsGroups().verdict());
    }

    @Test
    void anOperatorStatedVersionDecidesWhatTheFeaturesCannotTell() {
        destination.features = new DestinationFeatures(1, StreamsGroupSupport.METADATA_VERSION_4_2 + 1);
        settings.readIfDue(NOW);
        assertEquals(StreamsGroupSupport.Verdict.REFUSED, settings.streamsGroups().verdict(), "4.2.0 or 4.2.1");
        DestinationSettings stated = new DestinationSettings(destination, Optional.of("4.2.1"));
        stated.readIfDue(NOW);
        assertEquals(StreamsGroupSupport.Verdict.SUPPORTED, stated.streamsGroups().verdict());
    }
}
