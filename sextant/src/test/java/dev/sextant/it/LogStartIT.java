package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import dev.sextant.testing.CoordinatorRecords;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Offsets no offset sync covers (edge 1 of the no-silent-loss work) get a destination offset where nothing can be
 * skipped, instead of none (a failed-over consumer would start from {@code auto.offset.reset}, which skips with
 * {@code latest}):
 *
 * <ul>
 *   <li>an empty partition (committed 0, no record, so MirrorMaker 2 never emits a sync for it) is written as the
 *       mirror's log start;</li>
 *   <li>an offset below the partition's oldest sync with records below it (here MirrorMaker 2's offset-syncs topic as
 *       compaction leaves it, one sync per partition, read by a fresh {@code application.id}) stays
 *       {@code UNTRANSLATABLE} under the default {@code sync.untranslatable=refuse}, and is written as the mirror's
 *       log start under {@code earliest}: a consumer there reads every record it had not read.</li>
 * </ul>
 */
@ExtendWith(LocalClustersExtension.class)
class LogStartIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final String EMPTY = "logstart-empty";
    private static final String LEDGER = "logstart-ledger";
    private static final String COMPACTED_SYNCS = "logstart-compacted-offset-syncs";

    @Test
    void anEmptyPartitionIsWrittenAndAnOffsetBelowTheOldestSyncAsTheOperatorChose(LocalClusters clusters)
            throws Exception {
        clusters.createTopic(clusters.source(), EMPTY, 1);
        clusters.createTopic(clusters.source(), LEDGER, 1);
        Clients.produceNumbered(clusters.source(), LEDGER, 1, 1_000);
        clusters.awaitMirrored(EMPTY, SYNCED);
        clusters.awaitMirrored(LEDGER, SYNCED);
        // what compaction leaves of MirrorMaker 2's syncs of the partition: its newest one only (the mirror copied
        // the topic one for one, so 600 -> 600 describes it)
        clusters.createTopic(clusters.source(), COMPACTED_SYNCS, 1);
        KeyValue<byte[], byte[]> sync = CoordinatorRecords.offsetSync(LEDGER, 0, 600, 600);
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(COMPACTED_SYNCS, sync.key, sync.value)).get();
        }
        Map<String, Object> common = Map.of("offset.syncs.topic", COMPACTED_SYNCS);

        Map<String, Object> refuse = new HashMap<>(common);
        refuse.put("groups.include", "logstart-refuse-.*");
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-logstart-refuse", refuse)) {
            Clients.commit(clusters.source(), "logstart-refuse-empty", EMPTY, Map.of(0, 0L));
            Clients.commit(clusters.source(), "logstart-refuse-lagging", LEDGER, Map.of(0, 200L));
            long empty = awaitWritten(clusters, "logstart-refuse-empty", "source." + EMPTY);
            assertEquals(0, empty, "the empty partition at the mirror's log start");

            SextantClient client = SextantClient.builder("http://" + sextant.app().queryAddress())
                    .deadline(Duration.ofSeconds(10)).build();
            String status = Await.value(SYNCED, "logstart-refuse-lagging known", () -> {
                try {
                    List<SextantClient.Partition> parts = client.group("logstart-refuse-lagging").partitions();
                    return parts.isEmpty() || "PENDING".equals(parts.get(0).status()) ? null : parts.get(0).status();
                } catch (RuntimeException e) {
                    return null;
                }
            });
            assertEquals("UNTRANSLATABLE", status, "refuse: reported, not written");
            assertTrue(Clients.committed(clusters, clusters.destination(), "logstart-refuse-lagging",
                    "source." + LEDGER).isEmpty(), "nothing written under refuse");
        }

        Map<String, Object> earliest = new HashMap<>(common);
        earliest.put("groups.include", "logstart-earliest-.*");
        earliest.put("sync.untranslatable", "earliest");
        try (SextantInstance sextant = SextantInstance.start(clusters, "sextant-it-logstart-earliest", earliest)) {
            Clients.commit(clusters.source(), "logstart-earliest-lagging", LEDGER, Map.of(0, 200L));
            long written = awaitWritten(clusters, "logstart-earliest-lagging", "source." + LEDGER);
            assertEquals(0, written, "earliest: the mirror's log start");
            List<Integer> read = Clients.resumeAndReadToEnd(clusters.destination(), "logstart-earliest-lagging",
                    "source." + LEDGER, Map.of(0, 1_000L)).get(0);
            for (int v = 200; v < 1_000; v++) {
                assertTrue(read.contains(v), "record " + v + " read after failing over");
            }
            System.out.printf("log starts: an empty partition written at %d; commit 200 below the oldest sync 600 "
                    + "UNTRANSLATABLE under refuse, written at %d under earliest (%d records read, none skipped)%n",
                    0, written, read.size());
        }
    }

    private static long awaitWritten(LocalClusters clusters, String group, String topic) {
        return Await.value(SYNCED, group + " written", () -> {
            OffsetAndMetadata om = Clients.committed(clusters, clusters.destination(), group, topic).get(0);
            return om == null ? null : om.offset();
        });
    }
}
