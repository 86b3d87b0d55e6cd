package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.apply.DestinationView;
import dev.sextant.decode.OffsetSync;
import dev.sextant.history.OffsetSyncCheck.Verdict;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.SyncHolds;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class OffsetSyncGateTest {

    private final KeyValueStore<Bytes, byte[]> store = InMemoryStores.bytesStore(SyncHolds.NAME);
    private final SyncHolds holds = SyncHolds.of(store);
    private final InMemoryDestination destination = new InMemoryDestination();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final List<CompletableFuture<Map<TopicPartition, Long>>> fetches = new ArrayList<>();
    private final List<String> decided = new ArrayList<>();
    private final SourceOffsets source = new QuietSourceOffsets() {
        @Override
        public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
            CompletableFuture<Map<TopicPartition, Long>> fetch = new CompletableFuture<>();
            fetches.add(fetch);
            return fetch;
        }
    };

    private OffsetSyncGate gate() {
        return new OffsetSyncGate(holds, source, new DestinationView(destination), t -> "source." + t, tp -> null,
                ids -> { }, clock);
    }

    private void decided(OffsetSync sync, long timestamp, OffsetSyncCheck.Result result) {
        decided.add(sync.upstreamOffset() + ":" + result.verdict());
    }

    @Test
    void aSyncWaitsForOneFetchOfTheLogEndsAndSyncsOfAPartitionKeepTheirOrder() {
        destination.ends.put(new TopicPartition("source.orders", 0), 5_000L);
        OffsetSyncGate gate = gate();
        gate.offer(new OffsetSync("orders", 0, 100, 100), 0, this::decided);
        gate.offer(new OffsetSync("orders", 0, 200, 200), 0, this::decided);
        assertEquals(List.of(), decided, "held until the ends are known");
        assertEquals(2, gate.held());
        assertEquals(1, fetches.size(), "one fetch in flight at a time");

        fetches.get(0).complete(Map.of(new TopicPartition("orders", 0), 150L));
        gate.drain(this::decided);
        assertEquals(List.of("100:" + Verdict.ACCEPT), decided, "200 arrived after that fetch started: it waits");
        assertEquals(2, fetches.size());

        fetches.get(1).complete(Map.of(new TopicPartition("orders", 0), 150L));
        gate.drain(this::decided);
        // 200 is beyond the end fetched after it arrived: refused, and the order is kept
        assertEquals(List.of("100:" + Verdict.ACCEPT, "200:" + Verdict.REJECT), decided);
        assertEquals(0, gate.held());
        assertEquals(0, store.approximateNumEntries());
    }

    @Test
    void heldSyncsSurviveARestartAndAFailedFetch() {
        destination.ends.put(new TopicPartition("source.orders", 0), 5_000L);
        gate().offer(new OffsetSync("orders", 0, 100, 100), 0, this::decided);
        assertEquals(1, store.approximateNumEntries(), "in the changelogged store, not only in memory");

        OffsetSyncGate restarted = gate();
        assertEquals(1, restarted.held());
        restarted.drain(this::decided); // asks for the ends of what it found
        fetches.get(fetches.size() - 1).completeExceptionally(new TimeoutException("source unreachable"));
        restarted.drain(this::decided);
        assertEquals(List.of(), decided, "a failed fetch decides nothing");

        clock.advance(Duration.ofSeconds(2));
        restarted.drain(this::decided);
        fetches.get(fetches.size() - 1).complete(Map.of(new TopicPartition("orders", 0), 1_000L));
        restarted.drain(this::decided);
        assertEquals(List.of("100:" + Verdict.ACCEPT), decided);
    }
}
