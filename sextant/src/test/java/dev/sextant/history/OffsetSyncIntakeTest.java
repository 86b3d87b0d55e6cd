package dev.sextant.history;

import static dev.sextant.testing.CoordinatorRecords.offsetSync;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationView;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.domain.MirrorRewind;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.state.HistoryRecords;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.MirrorMatch;
import dev.sextant.state.OffsetSyncKeys;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.SyncHolds;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncPoint;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * The offset-sync intake without Kafka Streams: syncs in, the history topic's records and dead letters out through
 * its sink, which here plays the global store too (what the intake writes is read back into the store it consults).
 */
class OffsetSyncIntakeTest {

    private static final String SYNCS = "mm2-offset-syncs.destination.internal";
    private static final TopicPartition ORDERS0 = new TopicPartition("orders", 0);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-04T10:00:00Z"));
    private final InMemoryDestination destination = new InMemoryDestination();
    private final SextantMetrics metrics = new SextantMetrics(new SimpleMeterRegistry());
    private final OffsetSyncStore history = OffsetSyncStore.writer(InMemoryStores.bytesStore(OffsetSyncStore.NAME));
    /** What the sink got, in order, as "sync orders-0 100->100", "forget orders-0 100", "reset orders-0", ... */
    private final List<String> out = new ArrayList<>();
    private final List<DeadLetterRecord> deadLetters = new ArrayList<>();
    /** The mirror ids recorded, as "orders 1234-...": apart from {@link #out}, which the other tests compare whole. */
    private final List<String> mirrorIds = new ArrayList<>();
    /** The destination clusters pinned. */
    private final List<String> pins = new ArrayList<>();
    private final Map<String, Uuid> topicIds = new HashMap<>(Map.of("orders", Uuid.randomUuid()));
    private final Map<TopicPartition, Long> floors = new HashMap<>();
    private int commits;
    private DestinationView view;

    private final SourceOffsets source = new QuietSourceOffsets() {
        @Override
        public CompletableFuture<Map<TopicPartition, Long>> pruneFloors(Set<TopicPartition> partitions) {
            return CompletableFuture.completedFuture(Map.copyOf(floors));
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>> logEnds(Set<TopicPartition> partitions) {
            Map<TopicPartition, Long> ends = new HashMap<>();
            partitions.forEach(tp -> ends.put(tp, 1_000L));
            return CompletableFuture.completedFuture(ends);
        }

        @Override
        public CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
            Map<String, Uuid> ids = new HashMap<>();
            topics.stream().filter(topicIds::containsKey).forEach(t -> ids.put(t, topicIds.get(t)));
            return CompletableFuture.completedFuture(ids);
        }
    };

    private final HistorySink sink = new HistorySink() {
        @Override
        public void sync(OffsetSyncPoint sync, long timestamp) {
            out.add("sync " + sync.topic() + "-" + sync.partition() + " " + sync.upstreamOffset() + "->"
                    + sync.downstreamOffset());
            readBack(OffsetSyncKeys.key(sync.topic(), sync.partition(), sync.upstreamOffset()),
                    OffsetSyncKeys.value(sync.downstreamOffset()));
        }

        @Override
        public void forget(String topic, int partition, long upstreamOffset, long timestamp) {
            out.add("forget " + topic + "-" + partition + " " + upstreamOffset);
            readBack(OffsetSyncKeys.key(topic, partition, upstreamOffset), null);
        }

        @Override
        public void reset(String topic, int partition, long timestamp) {
            out.add("reset " + topic + "-" + partition);
            readBack(OffsetSyncKeys.resetMarker(topic, partition), new byte[0]);
        }

        @Override
        public void rewound(String topic, int partition, MirrorRewind rewind, long timestamp) {
            out.add("rewound " + topic + "-" + partition + " " + rewind.upstreamOffset() + "->"
                    + rewind.downstreamOffset());
            readBack(OffsetSyncKeys.rewindKey(topic, partition), OffsetSyncKeys.rewindValue(rewind));
        }

        @Override
        public void incarnation(String topic, Uuid id, long timestamp) {
            out.add("incarnation " + topic + " " + id);
            readBack(OffsetSyncKeys.incarnationKey(topic), OffsetSyncKeys.incarnationValue(id));
        }

        @Override
        public void mirrorIncarnation(String topic, Uuid id, long timestamp) {
            mirrorIds.add(topic + " " + id);
            readBack(OffsetSyncKeys.mirrorIncarnationKey(topic), OffsetSyncKeys.incarnationValue(id));
        }

        @Override
        public void destinationCluster(String clusterId, long timestamp) {
            pins.add(clusterId);
            readBack(OffsetSyncKeys.destinationClusterKey(), OffsetSyncKeys.clusterValue(clusterId));
        }

        @Override
        public void deadLetter(DeadLetterRecord record, long timestamp) {
            deadLetters.add(record);
        }

        @Override
        public void commitSoon() {
            commits++;
        }
    };

    private OffsetSyncIntake intake() {
        return intake(IntervalEvidence.NONE);
    }

    /** @param evidence what the records say of an interval (the sync with itself, for an unrecorded mirror) */
    private OffsetSyncIntake intake(IntervalEvidence evidence) {
        destination.topic("source.orders", 1);
        destination.ends.put(new TopicPartition("source.orders", 0), 1_000L);
        view = new DestinationView(destination, clock);
        view.refreshNow();
        return new OffsetSyncIntake(new OffsetSyncIntake.Settings(t -> "source." + t, t -> !t.equals("internal"),
                60_000, "test:8080", clock), source, view, metrics, OffsetSyncCatchUp.notNeeded(), history,
                SyncHolds.of(InMemoryStores.bytesStore(SyncHolds.NAME)), sink, evidence);
    }

    /** What the sink got but the source incarnations (recorded with a topic's first check). */
    private List<String> historyChanges() {
        return out.stream().filter(o -> !o.startsWith("incarnation ")).toList();
    }

    /** While set, the global store has not read the history topic back yet: records wait here. */
    private List<Map.Entry<Bytes, byte[]>> notReadBack;

    /** The global store reading the history topic back. */
    private void readBack(Bytes key, byte[] value) {
        if (notReadBack != null) {
            notReadBack.add(Map.entry(key, value == null ? new byte[0] : value));
        } else {
            HistoryRecords.replay(key, value, history);
        }
    }

    private static void offer(OffsetSyncIntake intake, String topic, long upstream, long downstream)
            throws UndecodableRecordException {
        KeyValue<byte[], byte[]> sync = offsetSync(topic, 0, upstream, downstream);
        intake.record(sync.key, sync.value, 0, new TopicPartition(SYNCS, 0), upstream);
        intake.decideHeld();
    }

    @Test
    void aSyncTheLogEndsCoverIsKeptWithTheIncarnationItDescribes() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        offer(intake, "orders", 200, 200);

        assertEquals(List.of("incarnation orders " + topicIds.get("orders"), "sync orders-0 100->100",
                "sync orders-0 200->200"), out);
        assertEquals(200, history.newest("orders", 0).orElseThrow().upstreamOffset());
        offer(intake, "orders", 100, 100);
        assertEquals(3, out.size(), "read again after a restart: already known, nothing written");
    }

    @Test
    void aSyncOfATopicNotSyncedIsIgnoredAndAnUndecodableRecordIsThrownBack() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "internal", 100, 100);
        assertEquals(List.of(), out);
        byte[] garbage = "not a sync".getBytes(StandardCharsets.UTF_8);
        assertThrows(UndecodableRecordException.class, () -> intake.record(garbage, garbage, 0,
                new TopicPartition(SYNCS, 0), 7));
        assertEquals(List.of(), out);
    }

    @Test
    void aSyncBeyondTheMirrorsEndIsRefusedAsADeadLetterOnceAMinutePerPartition() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 5_000);
        offer(intake, "orders", 101, 5_001);

        assertEquals(List.of(), out, "nothing kept");
        assertEquals(1, deadLetters.size(), "the second within a minute is counted, not written");
        assertEquals(Reason.INVALID_OFFSET_SYNC, deadLetters.get(0).reason());
        assertTrue(deadLetters.get(0).detail().contains("upstream 100 -> downstream 5000"),
                deadLetters.get(0).detail());
    }

    @Test
    void aSyncThatMovesTheMirrorBackForgetsTheSyncsItContradicts() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 500);
        offer(intake, "orders", 200, 600);
        out.clear();

        offer(intake, "orders", 300, 550); // the mirror was truncated and copied again from 500

        assertEquals(List.of("forget orders-0 200", "rewound orders-0 300->550", "sync orders-0 300->550"), out,
                "the rewind after the tombstones: a task planning on it translates through what is left");
        assertEquals(new MirrorRewind(300, 550), history.rewind("orders", 0));
    }

    @Test
    void aMirrorCreatedAgainForgetsTheHistoryAndTheNewMirrorsSyncsStartANewOne() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        offer(intake, "orders", 900, 900);
        assertEquals(1, mirrorIds.size(), "the mirror's id is recorded with the first sync: " + mirrorIds);
        out.clear();

        // the destination rebuilt (or the mirror deleted and re-seeded): MirrorMaker 2 copies again from the source's
        // log start at 400, so its syncs come with both offsets behind the newest sync, as a re-read would
        destination.recreate("source.orders");
        offer(intake, "orders", 400, 0);
        offer(intake, "orders", 500, 100);

        assertEquals(List.of("reset orders-0", "sync orders-0 400->0", "sync orders-0 500->100"), out,
                "the old history forgotten before the new mirror's first sync is judged");
        assertEquals(2, mirrorIds.size(), "the new id recorded: " + mirrorIds);
        assertEquals(Reason.MIRROR_RESEEDED, deadLetters.get(0).reason());
        assertEquals(100, history.newest("orders", 0).orElseThrow().downstreamOffset(),
                "a lagging commit translates through the new mirror's syncs");
    }

    @Test
    void theNewMirrorsSyncsAreTakenBeforeTheGlobalStoreReadTheResetBack() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        offer(intake, "orders", 900, 900);
        out.clear();
        notReadBack = new ArrayList<>(); // the global store lags the history topic

        destination.recreate("source.orders");
        intake.tick(); // the periodic check sees the new id first
        offer(intake, "orders", 400, 0);

        assertEquals(List.of("reset orders-0", "sync orders-0 400->0"), out,
                "judged against the forgotten history, not the store's stale newest sync (a re-read to skip)");
    }

    @Test
    void aMirrorCreatedAgainWithoutNewSyncsIsFoundByThePeriodicCheck() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        out.clear();
        destination.recreate("source.orders");

        intake.tick();
        clock.advance(Duration.ofSeconds(6));
        intake.tick();
        intake.tick();

        assertEquals(List.of("reset orders-0"), out);
        assertTrue(history.newest("orders", 0).isEmpty(), "nothing translates through the old mirror's syncs");
    }

    @Test
    void anAnswerAskedBeforeTheMirrorWasCreatedAgainDoesNotForgetTheNewHistory() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        Uuid old = destination.topicId("source.orders");
        destination.recreate("source.orders");
        offer(intake, "orders", 1_000, 0); // the new mirror's first sync: the old history forgotten before it
        out.clear();

        // one reader's answer, asked before the re-seed, comes in after the other's: the old id again
        destination.answerTopicId("source.orders", old);
        clock.advance(Duration.ofSeconds(6));
        intake.tick();
        intake.tick();

        assertEquals(List.of(), out, "not forgotten again: a topic id is never used again");
        assertEquals(0, history.newest("orders", 0).orElseThrow().downstreamOffset(),
                "the new mirror's first sync still translates");
        assertEquals(1, deadLetters.size(), "one MIRROR_RESEEDED: " + deadLetters);
    }

    @Test
    void aHistoryWithoutAMirrorIdWhoseNewestRecordsDifferOnTheMirrorIsForgottenNotAdopted() {
        // an earlier release's history (no mirror id), and a mirror created again since, longer than it
        history.put(new OffsetSyncPoint("orders", 0, 100, 100));
        history.put(new OffsetSyncPoint("orders", 0, 900, 900));
        List<OffsetSyncPoint> asked = new ArrayList<>();
        OffsetSyncIntake intake = intake((lower, upper) -> {
            asked.add(lower);
            return IntervalEvidence.Verdict.REFUTED;
        });
        assertEquals(Optional.of(MirrorMatch.NOT_RECORDED), history.describedMirror("orders"),
                "the sync writes nothing through it meanwhile");

        intake.tick();

        assertEquals(List.of(new OffsetSyncPoint("orders", 0, 900, 900)), asked, "the newest sync's records read");
        assertEquals(List.of("reset orders-0"), historyChanges());
        assertEquals(List.of("orders " + destination.topicId("source.orders")), mirrorIds);
        assertEquals(Reason.MIRROR_RESEEDED, deadLetters.get(0).reason());
        assertTrue(deadLetters.get(0).detail().contains("record at offset 900 of partition 0 is not the copy"),
                deadLetters.get(0).detail());
    }

    @Test
    void aHistoryWithoutAMirrorIdIsKeptWhenItsNewestRecordsMatchOnBothClusters() {
        history.put(new OffsetSyncPoint("orders", 0, 900, 900));
        OffsetSyncIntake intake = intake((lower, upper) -> IntervalEvidence.Verdict.PROVEN);

        intake.tick();

        assertEquals(List.of(), historyChanges(), "not forgotten: an upgrade keeps a good history");
        assertEquals(List.of("orders " + destination.topicId("source.orders")), mirrorIds);
        assertEquals(Optional.of(destination.topicId("source.orders")), history.describedMirror("orders"));
        assertTrue(deadLetters.isEmpty(), deadLetters.toString());
    }

    @Test
    void aHistoryWithoutAMirrorIdPastTheMirrorsEndIsForgottenAndAnUnprovenOneTakenAfterTheWait() {
        history.put(new OffsetSyncPoint("orders", 0, 1_500, 1_500)); // the mirror ends at 1,000
        destination.topic("source.payments", 1);
        destination.ends.put(new TopicPartition("source.payments", 0), 1_000L);
        history.put(new OffsetSyncPoint("payments", 0, 50, 50)); // inside the mirror; records not read
        OffsetSyncIntake intake = intake((lower, upper) -> IntervalEvidence.Verdict.UNKNOWN); // records unreadable

        intake.tick();
        assertEquals(List.of("reset orders-0"), historyChanges(), "a sync past the mirror's end describes another log");
        assertEquals(1, mirrorIds.size(), "payments waits for a proof: " + mirrorIds);
        clock.advance(Duration.ofMillis(UnrecordedMirrors.PROOF_WAIT_MS));
        intake.tick();

        assertEquals(List.of("reset orders-0"), historyChanges(), "payments kept");
        assertEquals(Optional.of(destination.topicId("source.payments")), history.describedMirror("payments"),
                "its id taken on the log ends alone");
    }

    @Test
    void withoutARecordReaderAnUnprovenHistoryIsTakenAtOnce() {
        history.put(new OffsetSyncPoint("orders", 0, 900, 900));
        OffsetSyncIntake intake = intake(IntervalEvidence.TRUSTED); // interpolation=unverified: reads no record

        intake.tick();

        assertEquals(Optional.of(destination.topicId("source.orders")), history.describedMirror("orders"),
                "nothing to wait for: taken on the log ends");
        assertEquals(List.of(), historyChanges());
    }

    @Test
    void theFirstDestinationClusterIsPinnedAndAnotherOneIsReportedOnceAndHoldsTheWrites() throws Exception {
        OffsetSyncIntake intake = intake();
        intake.tick();
        assertEquals(List.of("in-memory-cluster"), pins);
        assertEquals(Optional.of("in-memory-cluster"), history.destinationCluster());
        assertTrue(view.clusterChange().isEmpty());

        destination.clusterId = "rebuilt-cluster"; // the destination rebuilt at the same address
        clock.advance(Duration.ofSeconds(11));
        view.refreshNow();
        intake.tick();
        intake.tick();

        assertEquals(List.of("in-memory-cluster"), pins, "not pinned again without an operator");
        assertTrue(view.clusterChange().orElseThrow().contains("rebuilt-cluster"), view.clusterChange().toString());
        assertEquals(List.of(Reason.DESTINATION_CHANGED), deadLetters.stream().map(DeadLetterRecord::reason).toList(),
                "said once");
    }

    @Test
    void pruningForgetsWhatNoGroupCanNeedOnceItsIntervalCame() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        offer(intake, "orders", 200, 200);
        offer(intake, "orders", 300, 300);
        floors.put(ORDERS0, 250L);
        out.clear();

        intake.tick();
        assertEquals(List.of(), out, "not due before offset.syncs.prune.interval.ms");
        clock.advance(Duration.ofMinutes(1));
        intake.tick();

        assertEquals(List.of("forget orders-0 100"), out, "the newest sync at or below the floor stays");
    }

    @Test
    void aRecreatedSourceTopicForgetsTheHistoryOfItsOldIncarnation() throws Exception {
        OffsetSyncIntake intake = intake();
        offer(intake, "orders", 100, 100);
        intake.tick();
        Uuid recreated = Uuid.randomUuid();
        topicIds.put("orders", recreated);
        out.clear();

        clock.advance(Duration.ofMillis(IncarnationCheck.INTERVAL_MS));
        intake.tick();

        assertEquals(List.of("reset orders-0", "incarnation orders " + recreated), out);
        assertTrue(history.newest("orders", 0).isEmpty(), "nothing of the old incarnation translates");
        assertEquals(0, commits);
    }
}
