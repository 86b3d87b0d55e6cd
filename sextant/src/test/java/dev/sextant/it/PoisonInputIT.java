package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.testing.DeadLetters;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import io.micrometer.core.instrument.Counter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Poison on every topic Sextant reads, on real brokers: random bytes, null values and truncated records among the
 * offset syncs, syncs that decode but lie (an upstream offset near {@code Long.MAX_VALUE} that would freeze the
 * history, a negative one, one going backwards that would wipe it, one for a topic the source does not have), and
 * poison on the share-positions topic and on Sextant's own offset-sync history (which every instance replays into
 * its global store at start). No stream thread dies, the bad records are dead-lettered or counted, the lying syncs
 * never enter the history, and a normal group still syncs at the right offset, before and after a restart that
 * restores the poisoned history.
 *
 * <p>The offset syncs come from this test (a topic of its own, so the other tests' MirrorMaker 2 topic stays clean):
 * the "mirror" is a topic of the same records on the destination, with a sync every 100 records.
 */
@ExtendWith(LocalClustersExtension.class)
class PoisonInputIT {

    private static final String APP = "sextant-it-poison";
    private static final String SYNCS = "poison-offset-syncs";
    private static final String TOPIC = "ledger-poison";
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void poisonCostsNoThreadAndANormalGroupStillSyncs(LocalClusters clusters) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, 1);
        clusters.createTopic(clusters.destination(), "source." + TOPIC, 1);
        clusters.createTopic(clusters.source(), SYNCS, 1);
        Clients.produceNumbered(clusters.source(), TOPIC, 1, 1_000);
        Clients.produceNumbered(clusters.destination(), "source." + TOPIC, 1, 1_000);

        Random random = new Random(11);
        try (KafkaProducer<byte[], byte[]> producer = producer(clusters)) {
            for (long u = 0; u <= 400; u += 100) {
                producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(u, u)));
                producer.send(new ProducerRecord<>(SYNCS, bytes(random, 1 + random.nextInt(40)),
                        bytes(random, random.nextInt(40))));
            }
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), null));
            producer.send(new ProducerRecord<>(SYNCS, null, syncValue(5, 5)));
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), new byte[7]));
            // they decode, and lie
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(Long.MAX_VALUE - 5, 450)));
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(Long.MIN_VALUE + 1, 450)));
            // the shape of MirrorMaker 2 copying records again after a restart: skipped, counted, no dead letter
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(50, 950)));
            producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(420, Long.MAX_VALUE)));
            producer.send(new ProducerRecord<>(SYNCS, syncKey("no-such-topic", 0), syncValue(10, 10)));
            producer.flush();
        }

        Map<String, Object> overrides = Map.of("offset.syncs.topic", SYNCS, "groups.include", "poison-.*");
        try (SextantInstance sextant = SextantInstance.start(clusters, APP, overrides)) {
            try (KafkaProducer<byte[], byte[]> producer = producer(clusters)) {
                producer.send(new ProducerRecord<>(APP + "-share-positions", 0,
                        "poison-share".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3}));
                producer.send(new ProducerRecord<>(APP + "-share-positions", 0, null, new byte[36]));
                producer.send(new ProducerRecord<>(APP + "-offset-sync-history", bytes(random, 9), new byte[8]));
                producer.send(new ProducerRecord<>(APP + "-offset-sync-history",
                        OffsetSyncKeys.key(TOPIC, 0, 950).get(), new byte[3]));
                producer.flush();
            }

            Clients.commit(clusters.source(), "poison-readers", TOPIC, Map.of(0, 450L));
            assertEquals(401, awaitDestination(clusters, 450), "sync 400 -> 400: resume at 401, replay at most 49");

            // genuine syncs after the lies still count: the history is neither frozen nor wiped
            try (KafkaProducer<byte[], byte[]> producer = producer(clusters)) {
                for (long u = 500; u < 1_000; u += 100) {
                    producer.send(new ProducerRecord<>(SYNCS, syncKey(TOPIC, 0), syncValue(u, u)));
                }
            }
            Clients.commit(clusters.source(), "poison-readers", TOPIC, Map.of(0, 750L));
            assertEquals(701, awaitDestination(clusters, 750));
            DeadLetterRecord lie = DeadLetters.await(clusters, r -> r.reason() == Reason.INVALID_OFFSET_SYNC,
                    "an INVALID_OFFSET_SYNC dead letter", SYNCED);
            assertTrue(lie.detail().contains("refused"), lie.detail());
            Counter rejected = sextant.registry().find("sextant.offset.syncs.rejected").counter();
            assertEquals(4.0, rejected == null ? 0 : rejected.count(), "every lying sync counted");
            Counter remirrored = sextant.registry().find("sextant.offset.syncs.remirrored").counter();
            assertEquals(1.0, remirrored == null ? 0 : remirrored.count(), "the re-copy shape counted apart");

            DeadLetterRecord sync = DeadLetters.await(clusters, r -> r.reason() == Reason.UNDECODABLE
                    && r.detail().contains(SYNCS), "an UNDECODABLE dead letter for " + SYNCS, SYNCED);
            assertTrue(sync.detail().contains("offset sync"), sync.detail());
            DeadLetterRecord share = DeadLetters.await(clusters, "poison-share", Reason.UNDECODABLE, SYNCED);
            assertTrue(share.detail().contains("share position of 3 bytes"), share.detail());
            Await.until(SYNCED, "the poisoned history records counted", () ->
                    undecodable(sextant, APP + "-offset-sync-history") >= 2);
            assertHealthy(sextant);
        }

        // A fresh instance restores the global store from the poisoned history topic: it must not crash-loop
        try (SextantInstance restored = SextantInstance.start(clusters, APP, overrides)) {
            Clients.commit(clusters.source(), "poison-readers", TOPIC, Map.of(0, 850L));
            assertEquals(801, awaitDestination(clusters, 850));
            assertTrue(undecodable(restored, APP + "-offset-sync-history") >= 2, "restore met the poison and went on");
            assertHealthy(restored);
        }
    }

    private static long awaitDestination(LocalClusters clusters, long sourceOffset) {
        return Await.value(SYNCED, "poison-readers synced at " + sourceOffset, () -> {
            OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), "poison-readers",
                    "source." + TOPIC).get(0);
            return om != null && om.metadata().endsWith("src=" + sourceOffset) ? om.offset() : null;
        });
    }

    private static void assertHealthy(SextantInstance sextant) throws Exception {
        assertEquals(KafkaStreams.State.RUNNING, sextant.app().streams().state());
        Counter replaced = sextant.registry().find("sextant.stream.threads.replaced").counter();
        assertTrue(replaced == null || replaced.count() == 0, "no stream thread died");
        HttpResponse<String> live = HTTP.send(HttpRequest.newBuilder(URI.create("http://"
                + sextant.app().queryAddress() + "/health/live")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode(), live.body());
    }

    private static double undecodable(SextantInstance sextant, String topic) {
        Counter counter = sextant.registry().find("sextant.records.undecodable").tag("topic", topic).counter();
        return counter == null ? 0 : counter.count();
    }

    private static KafkaProducer<byte[], byte[]> producer(LocalClusters clusters) {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** MirrorMaker 2's OffsetSync key: int16 topic length, topic, int32 partition. */
    private static byte[] syncKey(String topic, int partition) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + name.length + 4).putShort((short) name.length).put(name).putInt(partition)
                .array();
    }

    private static byte[] syncValue(long upstream, long downstream) {
        return ByteBuffer.allocate(16).putLong(upstream).putLong(downstream).array();
    }

    private static byte[] bytes(Random random, int n) {
        byte[] out = new byte[n];
        random.nextBytes(out);
        return out;
    }
}
