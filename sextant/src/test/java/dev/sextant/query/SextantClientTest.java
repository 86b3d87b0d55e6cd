package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SextantClientTest {

    private FakeBackend backend;

    @BeforeEach
    void start() {
        backend = new FakeBackend(new SimpleMeterRegistry());
        backend.groups.put("billing", new Views.GroupDetail("billing", "consumer", List.of(
                new Views.PartitionView("orders", 0, "source.orders", 1234, 1230L, "bounded", 3L, 1230L, 9L, "APPLIED"),
                new Views.PartitionView("orders", 2, "source.orders", 77, 77L, "exact", 0L, 77L, 9L, "APPLIED"))));
        backend.translations.put("orders-0@1234", new Views.TranslationView("orders", 0, 1234, "source.orders", 1230,
                "bounded", 3));
    }

    @AfterEach
    void stop() {
        backend.close();
    }

    @Test
    void offsetsAreDestinationPartitionsAndSeekPositions() {
        Map<TopicPartition, Long> offsets = SextantClient.create(backend.url()).offsets("billing");
        assertEquals(Map.of(new TopicPartition("source.orders", 0), 1230L, new TopicPartition("source.orders", 2), 77L),
                offsets);
    }

    @Test
    void retriesWhileSextantRebalancesHonouringRetryAfter() {
        backend.unavailableCalls.set(2); // two 503s with Retry-After: 1, then the answer
        long start = System.nanoTime();
        Map<TopicPartition, Long> offsets = SextantClient.builder(backend.url()).deadline(Duration.ofSeconds(20))
                .build().offsets("billing");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(2, offsets.size());
        assertTrue(tookMs >= 1_900, "waited as Retry-After asked: " + tookMs + " ms");
    }

    @Test
    void givesUpAtTheDeadline() {
        backend.state = "REBALANCING";
        SextantClientException e = assertThrows(SextantClientException.class, () ->
                SextantClient.builder(backend.url()).deadline(Duration.ofMillis(1_500)).build().offsets("billing"));
        assertEquals(503, e.status());
        assertTrue(e.getMessage().contains("REBALANCING"), e.getMessage());
    }

    @Test
    void triesTheNextInstanceWhenOneCannotBeReached() {
        Map<TopicPartition, Long> offsets = SextantClient.builder("http://127.0.0.1:1", backend.url()).build()
                .offsets("billing");
        assertEquals(2, offsets.size());
    }

    @Test
    void anUnknownGroupIsNotFound() {
        SextantClientException e = assertThrows(SextantClientException.class,
                () -> SextantClient.create(backend.url()).offsets("nobody"));
        assertTrue(e.notFound());
    }

    @Test
    void translates() {
        SextantClient.Translation t = SextantClient.create(backend.url()).translate("orders", 0, 1234);
        assertEquals(new SextantClient.Translation("orders", 0, 1234, "source.orders", 1230, "bounded", 3), t);
    }

    @Test
    void groupPositionsCarryTheBound() {
        SextantClient.GroupPositions group = SextantClient.create(backend.url()).group("billing");
        assertEquals(3L, group.partitions().get(0).bound());
    }

    @Test
    void groupNamesAreEncodedInThePath() {
        backend.groups.put("a/b c+d", new Views.GroupDetail("a/b c+d", "consumer", List.of()));
        assertEquals("a/b c+d", SextantClient.create(backend.url()).group("a/b c+d").group());
    }

    @Test
    void rejectsAUrlThatIsNotHttp() {
        assertThrows(IllegalArgumentException.class, () -> SextantClient.create("ftp://x:1"));
        assertThrows(IllegalArgumentException.class, () -> SextantClient.builder());
    }
}
