package dev.sextant.topology;

import static dev.sextant.testing.CoordinatorRecords.classicGroup;
import static dev.sextant.testing.CoordinatorRecords.offsetCommit;
import static dev.sextant.testing.CoordinatorRecords.offsetDeleted;
import static dev.sextant.testing.CoordinatorRecords.offsetSync;
import static dev.sextant.testing.CoordinatorRecords.shareGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.domain.Reason;
import dev.sextant.history.IntervalProofs;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.source.SourceTopicNames;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.state.PositionStore;
import dev.sextant.sync.Backoffs;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Scope;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.sync.SyncSettings.Topics;
import dev.sextant.sync.TakeoverAudit;
import dev.sextant.sync.UnansweredLimit;
import dev.sextant.testing.CoordinatorRecords;
import dev.sextant.testing.FakeRecordRanges;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.testkit.Await;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.Precision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group sync inside the topology, consumer and share groups: decode, filter, translate, coalesce, guard,
 * dead-letter.
 */
class GroupSyncTopologyTest {

    private static final String APP = "sextant-test";
    private static final String SYNCS = "mm2-offset-syncs.destination.internal";
    private static final long INTERVAL = 250;
    private static final long PENDING_TIMEOUT = 5_000;
    private static final long PRUNE_INTERVAL = 10_000;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final InMemoryDestination destination = new InMemoryDestination();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Map<TopicPartition, Long> floorAnswer =
            new ConcurrentHashMap<>();
    private final Map<Uuid, String> sourceTopicIds =
            new ConcurrentHashMap<>();
    private final SourceTopicNames topicNames = new SourceTopicNames() {
        @Override
        public Optional<String> name(Uuid id) {
            return Optional.ofNullable(sourceTopicIds.get(id));
        }

        @Override
        public void close() {
        }
    };
    /** The source's log ends as the offset-sync check sees them; {@link #sync} keeps them past each sync. */
    private final Map<TopicPartition, Long> sourceEnds =
            new ConcurrentHashMap<>();
    private final Set<String> missingSourceTopics = ConcurrentHashMap.newKeySet();
    /** Source log starts this test knows; the source answers none for other partitions. */
    private final Map<TopicPartition, Long> sourceStarts = new ConcurrentHashMap<>();
    private boolean untranslatableEarliest;
    /** The source's topic ids by name, as the incarnation check sees them. */
    private final Map<String, Uuid> sourceIdsByName = new ConcurrentHashMap<>();
    private final SourceOffsets floors = new SourceOffsets() {
        @Override
        public CompletableFuture<Map<String, Uuid>> topicIds(Set<String> topics) {
            Map<String, Uuid> out = new HashMap<>();
            topics.stream().filter(sourceIdsByName::containsKey).forEach(t -> out.put(t, sourceIdsByName.get(t)));
            return CompletableFuture.completedFuture(out);
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>>
                logStarts(Set<TopicPartition> partitions) {
            Map<TopicPartition, Long> out = new HashMap<>();
            partitions.stream().filter(sourceStarts::containsKey).forEach(tp -> out.put(tp, sourceStarts.get(tp)));
            return CompletableFuture.completedFuture(out);
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>>
                pruneFloors(Set<TopicPartition> partitions) {
            return CompletableFuture.completedFuture(Map.copyOf(floorAnswer));
        }

        @Override
        public CompletableFuture<Map<TopicPartition, Long>>
                logEnds(Set<TopicPartition> partitions) {
            Map<TopicPartition, Long> out = new HashMap<>();
            partitions.forEach(tp -> {
                if (!missingSourceTopics.contains(tp.topic())) {
                    out.put(tp, sourceEnds.getOrDefault(tp, 0L));
                }
            });
            return CompletableFuture.completedFuture(out);
        }

        @Override
        public void close() {
        }
    };
    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private final SextantMetrics metrics = new SextantMetrics(registry);
    /** What translation takes as proof of an interval between syncs: nothing, unless a test says otherwise. */
    private IntervalEvidence evidence = IntervalEvidence.NONE;
    private TestInputTopic<byte[], byte[]> commits;
    private TestInputTopic<byte[], byte[]> syncs;
    private TestOutputTopic<String, DeadLetterRecord> deadLetters;
    private TestInputTopic<byte[], byte[]> shareState;
    private DestinationView view;

    private void start(boolean identity, boolean followRewinds) {
        SyncSettings settings = new SyncSettings(
                new Topics(APP, "source", new DefaultReplicationPolicy(), SYNCS, "sextant.conflicts"),
                new Scope(g -> !Pattern.matches("__.*|connect-.*|console-consumer-.*|" + APP, g),
                        t -> !Pattern.matches(".*[-.]internal|.*\\.replica|__.*", t), true, true),
                new Timing(INTERVAL, PENDING_TIMEOUT, PRUNE_INTERVAL, 30_000),
                new OffsetRules(identity, followRewinds, untranslatableEarliest),
                "test:8080",
                clock);
        view = new DestinationView(destination);
        view.refreshNow();
        ConsumerGroupApplier applier = new ConsumerGroupApplier(destination, new OffsetOwnership(APP), followRewinds);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        // not /tmp/kafka-streams: builds run side by side
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        SyncRuntime runtime = new SyncRuntime(view, applier, new ShareGroupApplier(destination), floors,
                topicNames, metrics).withEvidence(evidence);
        driver = new TopologyTestDriver(SextantTopology.build(settings, runtime), props, clock.instant());
        commits = driver.createInputTopic("__consumer_offsets", Serdes.ByteArray().serializer(),
                Serdes.ByteArray().serializer());
        if (!identity) {
            syncs = driver.createInputTopic(SYNCS, Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        }
        shareState = driver.createInputTopic("__share_group_state", Serdes.ByteArray().serializer(),
                Serdes.ByteArray().serializer());
        deadLetters = driver.createOutputTopic("sextant.conflicts", Serdes.String().deserializer(),
                new DeadLetterSerde().deserializer());
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void commit(String group, String topic, int partition, long offset) {
        KeyValue<byte[], byte[]> kv = offsetCommit(group, topic, partition, offset, clock.millis());
        commits.pipeInput(kv.key, kv.value, clock.instant()); // read as soon as it is made
    }

    /** A sync as MirrorMaker 2 emits it: of a record that exists on both clusters. */
    private void sync(String topic, int partition, long upstream, long downstream) {
        sourceEnds.merge(new TopicPartition(topic, partition), upstream + 1, Math::max);
        destination.ends.merge(new TopicPartition("source." + topic, partition),
                downstream + 1, Math::max);
        rawSync(topic, partition, upstream, downstream);
    }

    /** Any sync, whether or not the logs have such records. */
    private void rawSync(String topic, int partition, long upstream, long downstream) {
        KeyValue<byte[], byte[]> kv = offsetSync(topic, partition, upstream, downstream);
        syncs.pipeInput(kv.key, kv.value);
    }

    /**
     * Three punctuations: the view learns of new destination topics, the writes are sent, their outcomes settle.
     */
    private void flush() {
        tick(INTERVAL);
        tick(INTERVAL);
        tick(INTERVAL);
    }

    private void tick(long millis) {
        view.refreshNow();
        clock.advance(Duration.ofMillis(millis));
        driver.advanceWallClockTime(Duration.ofMillis(millis));
    }

    private PartitionPosition position(String group, String topic, int partition) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(PositionStore.NAME);
        return PositionStore.of(store).get(new PositionKey(group, topic, partition));
    }

    @Test
    void appliesTheTranslatedOffsetWithSextantsMark() {
        start(false, true);
        destination.topic("source.orders", 3);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);

        commit("billing", "orders", 0, 200);
        commit("billing", "orders", 1, 0); // no sync for partition 1 yet
        flush();

        assertEquals(190L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).startsWith("sextant/" + APP));
        PartitionPosition p0 = position("billing", "orders", 0);
        assertEquals(PositionStatus.APPLIED, p0.status());
        assertEquals(Precision.EXACT, p0.precision());
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 1).status());
        assertTrue(deadLetters.isEmpty(), "untranslatable is not reported before the pending timeout");
    }

    /**
     * Commits made a while ago (a backlog: the instance was down, or the source wrote faster than it reads) are
     * written as each group's newest one, a group at most every few seconds, instead of one write per commit; once the
     * commits read are fresh again, the next one goes out at the next flush.
     */
    @Test
    void aBacklogOfCommitsGoesOutAsEachGroupsNewestCommitNotOneWriteEach() {
        start(true, true);
        destination.topic("source.orders", 1);
        long madeAt = clock.millis() - 60_000; // read a minute after they were made
        pipeCommit("billing", 0, 10, madeAt);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "the first goes out at once");
        int writes = destination.alterCalls.get();

        for (long offset = 11; offset <= 30; offset++) { // more of the backlog, over most of the interval
            pipeCommit("billing", 0, offset, madeAt + offset);
            tick(Backoffs.BACKLOG_GROUP_INTERVAL_MS / 25);
        }
        assertEquals(writes, destination.alterCalls.get(), "nothing more within the interval");
        tick(Backoffs.BACKLOG_GROUP_INTERVAL_MS);
        flush();
        assertEquals(30L, destination.committed("billing", "source.orders", 0), "the newest, in one write");
        assertEquals(writes + 1, destination.alterCalls.get());

        commit("billing", "orders", 0, 31); // made now: the backlog is read
        flush();
        assertEquals(31L, destination.committed("billing", "source.orders", 0), "no longer paced");
    }

    /**
     * While the destination has many writes unanswered, no more groups are planned: the rest wait as pending groups,
     * where a newer commit joins its group's one write, instead of queueing behind those writes on what was read for
     * them.
     */
    @Test
    void planningHoldsBackWhileTheDestinationHasManyWritesUnanswered() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.holdWrites = true;
        int groups = UnansweredLimit.MIN + 10;
        for (int g = 0; g < groups; g++) {
            commit("g" + g, "orders", 0, 10);
        }
        flush();
        assertEquals(UnansweredLimit.MIN, destination.heldWrites(), "no more than the limit handed out");
        String last = "g" + (groups - 1);
        commit(last, "orders", 0, 11); // not planned yet: its newer commit joins its one write
        flush();
        assertEquals(UnansweredLimit.MIN, destination.heldWrites(), "nothing more while none is answered");

        destination.holdWrites = false;
        destination.releaseWrites();
        flush();
        for (int g = 0; g < groups - 1; g++) {
            assertEquals(10L, destination.committed("g" + g, "source.orders", 0), "g" + g);
        }
        assertEquals(11L, destination.committed(last, "source.orders", 0));
        assertEquals(groups, destination.alterCalls.get(), "one write per group");
    }

    private void pipeCommit(String group, int partition, long offset, long madeAt) {
        KeyValue<byte[], byte[]> kv = offsetCommit(group, "orders", partition, offset, madeAt);
        commits.pipeInput(kv.key, kv.value, Instant.ofEpochMilli(madeAt));
    }

    @Test
    void anOffsetOnAnEmptyPartitionIsWrittenAsTheMirrorsLogStart() {
        start(false, true);
        destination.topic("source.orders", 2);
        sync("orders", 0, 100, 90); // partition 1 holds no record, so no sync
        sourceStarts.put(new TopicPartition("orders", 1), 0L);
        destination.ends.put(new TopicPartition("source.orders", 1), 0L);

        commit("billing", "orders", 1, 0);
        flush();
        tick(1_000); // the park of an untranslatable offset; the log starts were fetched meanwhile
        flush();
        assertEquals(0L, destination.committed("billing", "source.orders", 1), "not left to auto.offset.reset");
        PartitionPosition pos = position("billing", "orders", 1);
        assertEquals(PositionStatus.APPLIED, pos.status());
        assertEquals(Precision.EXACT, pos.precision(), "the mirror partition holds nothing to replay");
    }

    @Test
    void anOffsetBelowTheOldestSyncStaysUntranslatableByDefault() {
        belowTheOldestSync();
        assertNull(destination.committed("billing", "source.orders", 0), "refuse: nothing written");
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());
    }

    @Test
    void anOffsetBelowTheOldestSyncIsWrittenAsTheMirrorsLogStartUnderEarliest() {
        untranslatableEarliest = true;
        belowTheOldestSync();
        assertEquals(0L, destination.committed("billing", "source.orders", 0), "replays, skips nothing");
        assertEquals(91L, position("billing", "orders", 0).bound(), "at most what the mirror holds");
    }

    @Test
    void anUntranslatableOffsetIsPlannedAtTheFirstFlushAfterASyncCoversIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 500); // the partition's first sync is not there yet
        flush();
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());

        sync("orders", 0, 450, 440);
        tick(INTERVAL); // well inside the park of the untranslatable offset: the covering sync alone brings it back
        assertEquals(441L, destination.committed("billing", "source.orders", 0), "bounded: the sync plus one");
        flush(); // the answer settles
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    /** A commit at 50 where the partition's oldest sync is 100 -> 90 (MirrorMaker 2 coalesced the ones before). */
    private void belowTheOldestSync() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        sourceStarts.put(new TopicPartition("orders", 0), 0L);
        commit("billing", "orders", 0, 50);
        flush();
        tick(1_000); // the park of an untranslatable offset
        flush();
    }

    @Test
    void anAppliedOffsetIsWrittenAgainBeforeTheDestinationsRetentionDeletesIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        commit("billing", "orders", 0, 100);
        flush();
        assertEquals(90L, destination.committed("billing", "source.orders", 0));
        int writes = destination.alterCalls.get();

        tick(Duration.ofDays(1).toMillis()); // idle, well inside the 7-day default retention: left alone
        flush();
        assertEquals(writes, destination.alterCalls.get());

        tick(Duration.ofDays(3).toMillis()); // past half of it: written again, unchanged
        flush();
        assertEquals(writes + 1, destination.alterCalls.get(), "written again though the offset is there");
        assertEquals(90L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.offsets.refreshed").counter().count());
    }

    @Test
    void aTranslationBeyondTheMirrorsLogEndIsWrittenAtTheEndThenFollowsItUp() {
        start(false, true);
        destination.topic("source.orders", 1);
        TopicPartition mirror = new TopicPartition("source.orders", 0);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        flush();
        destination.ends.put(mirror, 150L); // the destination's log was truncated (an unclean election there)

        commit("billing", "orders", 0, 200);
        flush();
        assertEquals(150L, destination.committed("billing", "source.orders", 0),
                "never beyond the end: producers append there after a promotion, and a consumer beyond would skip");
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" b=40 "),
                "the records from 150 to 190 are replays once mirrored: the bound says so");
        assertEquals(1.0, registry.get("sextant.positions.beyond.log.end").counter().count());
        PartitionPosition clamped = position("billing", "orders", 0);
        assertEquals(PositionStatus.APPLIED, clamped.status());
        assertTrue(clamped.clamped(), clamped.toString());

        destination.ends.put(mirror, 170L);
        flush();
        assertEquals(170L, destination.committed("billing", "source.orders", 0), "follows the mirror's end");
        destination.ends.put(mirror, 400L);
        flush();
        assertEquals(190L, destination.committed("billing", "source.orders", 0), "then the translation itself");
        assertTrue(!position("billing", "orders", 0).clamped());
        int writes = destination.alterCalls.get();
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing more to write");
    }

    @Test
    void aCommitReadBeforeItsSyncIsAppliedOnceTheSyncArrives() {
        start(false, true);
        destination.topic("source.orders", 2);
        commit("billing", "orders", 0, 150);
        commit("billing", "orders", 1, 150);
        flush();
        assertEquals(PositionStatus.UNTRANSLATABLE, position("billing", "orders", 0).status());

        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        sync("orders", 1, 150, 140);
        tick(1_000); // an untranslatable partition is retried a second later, not at every flush
        flush();

        assertEquals(91L, destination.committed("billing", "source.orders", 0), "below the newest sync: from RocksDB");
        assertEquals(140L, destination.committed("billing", "source.orders", 1), "at the newest sync");
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    @Test
    void anOffsetBelowTheOldestSyncIsReportedOnceAtThePendingTimeoutWhileTheRestSyncs() {
        start(false, true);
        destination.topic("source.orders", 2);
        sync("orders", 0, 100, 90);
        sync("orders", 1, 0, 0);
        commit("billing", "orders", 0, 5); // below the oldest sync: MirrorMaker 2 never said where it went
        commit("billing", "orders", 1, 0);
        flush();
        assertEquals(0L, destination.committed("billing", "source.orders", 1));
        assertTrue(deadLetters.isEmpty());

        for (long waited = 0; waited < PENDING_TIMEOUT + 1_000; waited += 500) {
            tick(500);
            commit("billing", "orders", 1, 1 + waited / 500); // the group keeps committing meanwhile
        }
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNTRANSLATABLE, record.reason());
        assertEquals(List.of(0),
                record.partitions().stream().map(DeadLetterRecord.PartitionDetail::partition).toList());
        assertTrue(deadLetters.isEmpty(), "one record per transition");
        flush();
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 1).status());
        assertEquals(1L + (PENDING_TIMEOUT + 500) / 500, position("billing", "orders", 1).appliedSourceOffset(),
                "the partition that translates followed every commit");
    }

    @Test
    void afterASourceLogIsReplacedNoCommitTranslatesThroughTheOldLogsSyncs() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 500, 490);
        recreateSourceTopic("orders", 0, 11);
        sync("orders", 0, 10, 600); // upstream went back, downstream on, the source log is short: a new log

        commit("billing", "orders", 0, 700);
        flush();

        assertEquals(601L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void coalescesManyCommitsIntoOneWritePerGroup() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 0);
        for (int offset = 1; offset <= 1000; offset++) {
            commit("billing", "orders", 0, offset);
        }
        flush();

        assertEquals(1, destination.alterCalls.get());
        assertEquals(1L, destination.committed("billing", "source.orders", 0), "bounded: sync at 0 -> 0 + 1");
        PartitionPosition p = position("billing", "orders", 0);
        assertEquals(1000, p.sourceOffset());
        assertEquals(Precision.BOUNDED, p.precision());
        assertEquals(999, p.bound());
    }

    @Test
    void aNewerSyncImprovesAnAlreadyAppliedBoundedPosition() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 0);
        commit("billing", "orders", 0, 500);
        flush();
        assertEquals(1L, destination.committed("billing", "source.orders", 0));

        sync("orders", 0, 499, 499); // MirrorMaker 2 flushed its delayed sync
        tick(1_000);
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0));
        assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());
    }

    /**
     * Starts the topology with interval proofs read from {@code mirror} (the source: a record at every offset), and
     * two syncs of orders-0 with equal deltas: (0, 100) and (1000, 1100).
     */
    private IntervalProofs startProving(FakeRecordRanges mirror) {
        IntervalProofs proofs = new IntervalProofs(new FakeRecordRanges(), mirror, t -> "source." + t, 10_000,
                metrics);
        evidence = proofs;
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 0, 100);
        sync("orders", 0, 1000, 1100);
        return proofs;
    }

    @Test
    void aCommitBetweenSyncsWithEqualDeltasIsWrittenExactlyOnceTheRecordsProveTheInterval() {
        FakeRecordRanges mirror = new FakeRecordRanges();
        mirror.bases.put(new TopicPartition("source.orders", 0), 100L); // source offset n sits at n + 100
        try (IntervalProofs proofs = startProving(mirror)) {
            mirror.hold = new CountDownLatch(1);
            commit("billing", "orders", 0, 500);
            flush();
            // the interval is not proven yet: MirrorMaker 2's rule meanwhile
            assertEquals(101L, destination.committed("billing", "source.orders", 0));

            mirror.hold.countDown();
            Await.until(Duration.ofSeconds(10), "the interval is proven", () -> proofs.proven() == 1);
            flush();
            assertEquals(600L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());

            // above the newest sync: bounded until the next sync closes the interval and the records prove it
            mirror.hold = new CountDownLatch(1);
            commit("billing", "orders", 0, 1500);
            flush();
            assertEquals(1101L, destination.committed("billing", "source.orders", 0));
            sync("orders", 0, 2000, 2100);
            tick(1_000);
            flush();
            assertEquals(1101L, destination.committed("billing", "source.orders", 0));
            mirror.hold.countDown();
            Await.until(Duration.ofSeconds(10), "the new interval is proven", () -> proofs.proven() == 2);
            flush();
            assertEquals(1600L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.EXACT, position("billing", "orders", 0).precision());
        }
    }

    @Test
    void aCommitBetweenSyncsWhoseRecordsDifferKeepsTheBoundedRule() {
        FakeRecordRanges mirror = new FakeRecordRanges();
        mirror.bases.put(new TopicPartition("source.orders", 0), 101L); // shifted inside the interval
        try (IntervalProofs proofs = startProving(mirror)) {
            commit("billing", "orders", 0, 500);
            flush();
            Await.until(Duration.ofSeconds(10), "the interval is refuted",
                    () -> registry.counter("sextant.offset.sync.intervals", "verdict", "refuted").count() == 1.0);
            flush();
            assertEquals(101L, destination.committed("billing", "source.orders", 0));
            assertEquals(Precision.BOUNDED, position("billing", "orders", 0).precision());
        }
    }

    @Test
    void filtersExcludedGroupsTopicsAndItsOwnCommits() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.topic("source.internal-stuff.internal", 1);
        commit("console-consumer-42", "orders", 0, 10);
        commit(APP, "orders", 0, 10);
        commit("billing", "internal-stuff.internal", 0, 10);
        commit("billing", "orders", 0, 10);
        flush();

        assertEquals(1, destination.alterCalls.get());
        assertNull(destination.committed("console-consumer-42", "source.orders", 0));
        assertNull(destination.committed(APP, "source.orders", 0));
        assertNull(destination.committed("billing", "source.internal-stuff.internal", 0));
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void neverWritesToAnActiveGroupAndReportsItOnce() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.activeConsumerGroup("billing");
        commit("billing", "orders", 0, 10);
        flush();
        commit("billing", "orders", 0, 20);
        tick(2_000);
        flush();

        assertEquals(0, destination.alterCalls.get());
        List<DeadLetterRecord> records = deadLetters.readValuesToList();
        assertEquals(1, records.size(), "one record per (group, reason) transition");
        assertEquals(Reason.GROUP_ACTIVE, records.get(0).reason());
        assertEquals("billing", records.get(0).group());
        assertEquals("consumer", records.get(0).groupType());
        assertEquals(PositionStatus.GROUP_ACTIVE, position("billing", "orders", 0).status());

        destination.emptyConsumerGroup("billing"); // the consumer left
        tick(2_000);
        flush();
        assertEquals(20L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
    }

    @Test
    void aShareGroupOfTheSameNameIsATypeConflictAndOtherGroupsStillSync() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.shareGroup("billing");
        commit("billing", "orders", 0, 10);
        commit("shipping", "orders", 0, 33);
        flush();

        assertNull(destination.committed("billing", "source.orders", 0));
        assertEquals(33L, destination.committed("shipping", "source.orders", 0));
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.TYPE_CONFLICT, record.reason());
        assertEquals("billing", record.group());
        assertEquals(10L, record.partitions().get(0).sourceOffset());
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void offsetsCommittedBySomeoneElseAreNeverOverwritten() {
        start(true, true);
        destination.topic("source.orders", 1);
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(5, ""))));
        commit("billing", "orders", 0, 10);
        flush();

        assertEquals(5L, destination.committed("billing", "source.orders", 0));
        assertEquals(Reason.DESTINATION_DIVERGED, deadLetters.readValue().reason());
    }

    @Test
    void aLateWriteOfAnOlderCommitAfterATakeoverIsOverwrittenWithTheNewerOne() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 300);
        long olderCommit = clock.millis();
        tick(1_000);
        commit("billing", "orders", 0, 500);
        flush();
        assertEquals(500L, destination.committed("billing", "source.orders", 0));

        // the instance that owned the task before: its write of the older commit reaches the broker now
        destination.offsets.get("billing").put(new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(300,
                        new OffsetOwnership(APP).metadataFor(olderCommit, 300)));
        tick(TakeoverAudit.INTERVAL_MS);
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0), "the newer commit written again");
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" src=500"));
        assertEquals(PositionStatus.APPLIED, position("billing", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.stale.writes.repaired").counter().count());
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void aNewerCommitThatTranslatesToTheSameOffsetIsNoLateWriteForTheAudit() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 90);
        sync("orders", 0, 200, 190);
        commit("billing", "orders", 0, 150);
        flush();
        assertEquals(91L, destination.committed("billing", "source.orders", 0));
        tick(1_000);
        commit("billing", "orders", 0, 160); // a lagging consumer: the same translation, 91, under a newer commit
        flush();
        int writes = destination.alterCalls.get();

        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing rewritten");
        assertTrue(registry.find("sextant.stale.writes.repaired").counters().isEmpty()
                || registry.get("sextant.stale.writes.repaired").counter().count() == 0);
    }

    @Test
    void theTakeoverAuditLeavesForeignAndNewerOffsetsAloneAndEndsAfterItsWindow() {
        start(true, true);
        destination.topic("source.orders", 2);
        commit("billing", "orders", 0, 300);
        commit("billing", "orders", 1, 300);
        flush();
        var p0 = new TopicPartition("source.orders", 0);
        var p1 = new TopicPartition("source.orders", 1);
        // a newer Sextant commit (this instance has not read it yet) and a consumer's own commit
        destination.offsets.get("billing").put(p0, new OffsetAndMetadata(400,
                new OffsetOwnership(APP).metadataFor(clock.millis() + 10_000, 400)));
        destination.offsets.get("billing").put(p1, new OffsetAndMetadata(350, ""));
        int writes = destination.alterCalls.get();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(writes, destination.alterCalls.get(), "nothing to repair");
        assertEquals(400L, destination.committed("billing", "source.orders", 0));
        assertEquals(350L, destination.committed("billing", "source.orders", 1));

        // past the window, an older mark is left for the next commit to replace
        tick(TakeoverAudit.WINDOW_MS);
        destination.offsets.get("billing").put(p0, new OffsetAndMetadata(100,
                new OffsetOwnership(APP).metadataFor(0, 100)));
        int reads = destination.listOffsetCalls.get();
        tick(TakeoverAudit.INTERVAL_MS);
        flush();
        assertEquals(reads, destination.listOffsetCalls.get(), "no audit reads after the window");
        assertEquals(100L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aWriteNeverReplacesAnOffsetThatCarriesANewerSourceCommit() {
        start(true, true);
        destination.topic("source.orders", 1);
        // what the instance that owns the group now wrote, or what was written before this commit was replayed
        long newerCommit = clock.millis() + 60_000;
        destination.offsets.put("billing", new ConcurrentHashMap<>(Map.of(
                new TopicPartition("source.orders", 0),
                new OffsetAndMetadata(500,
                        new OffsetOwnership(APP).metadataFor(newerCommit, 500)))));
        commit("billing", "orders", 0, 300); // an older commit, rewound or not
        flush();

        assertEquals(500L, destination.committed("billing", "source.orders", 0), "never moved backwards");
        assertEquals(PositionStatus.SUPERSEDED, position("billing", "orders", 0).status());
        assertTrue(deadLetters.isEmpty(), "not a conflict: the destination is ahead");

        tick(61_000);
        commit("billing", "orders", 0, 700); // newer than the mark
        flush();
        assertEquals(700L, destination.committed("billing", "source.orders", 0));
        assertTrue(destination.metadata("billing", "source.orders", 0).contains(" src=700"));
    }

    @Test
    void aGroupMigratedBetweenProtocolsOnlineKeepsItsPositions() {
        start(true, true);
        destination.topic("source.orders", 1);
        pipe(commits, CoordinatorRecords.classicGroup("billing", "consumer"));
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));

        // classic -> consumer: the broker tombstones the classic record; the offsets survive (no offset tombstone)
        pipe(commits, CoordinatorRecords.classicGroupTombstone("billing"));
        pipe(commits, CoordinatorRecords.consumerGroup("billing"));
        assertEquals(10, position("billing", "orders", 0).sourceOffset(), "the position is kept");
        commit("billing", "orders", 0, 20);
        flush();
        assertEquals(20L, destination.committed("billing", "source.orders", 0));

        // and back: the consumer record tombstoned first, the classic one after
        pipe(commits, CoordinatorRecords.consumerGroupTombstone("billing"));
        assertEquals(20, position("billing", "orders", 0).sourceOffset());
        pipe(commits, CoordinatorRecords.classicGroup("billing", "consumer"));
        commit("billing", "orders", 0, 30);
        flush();
        assertEquals(30L, destination.committed("billing", "source.orders", 0));

        // a real deletion tombstones the offsets too: then the position goes
        pipe(commits, CoordinatorRecords.offsetDeleted("billing", "orders", 0));
        pipe(commits, CoordinatorRecords.classicGroupTombstone("billing"));
        assertEquals(null, position("billing", "orders", 0));
    }

    @Test
    void followsASourceRewindOnlyWhenConfigured() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 100);
        flush();
        commit("billing", "orders", 0, 40); // kafka-consumer-groups --reset-offsets on the source
        flush();
        assertEquals(40L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void keepsTheHigherDestinationOffsetWhenRewindsAreNotFollowed() {
        start(true, false);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 100);
        flush();
        commit("billing", "orders", 0, 40);
        flush();
        assertEquals(100L, destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.REWIND_SKIPPED, position("billing", "orders", 0).status());
    }

    @Test
    void waitsForTheMirrorTopicThenReportsItOnceAndKeepsRetrying() {
        start(true, true);
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(PositionStatus.TOPIC_NOT_MIRRORED, position("billing", "orders", 0).status());
        assertTrue(deadLetters.isEmpty());

        tick(PENDING_TIMEOUT);
        flush();
        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.TOPIC_NOT_MIRRORED, record.reason());
        assertTrue(deadLetters.isEmpty());

        destination.topic("source.orders", 1); // MirrorMaker 2 created it
        flush();
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void anUnreachableDestinationDelaysButDropsNothing() {
        start(true, true);
        destination.topic("source.orders", 1);
        view.refreshNow();
        destination.unreachable = true;
        commit("billing", "orders", 0, 10);
        flush();
        tick(3_000);
        flush();
        assertNull(destination.committed("billing", "source.orders", 0));
        assertEquals(PositionStatus.PENDING, position("billing", "orders", 0).status());

        destination.unreachable = false;
        tick(2_000);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void theOldestUnappliedCommitAgesWhileTheDestinationIsDownEvenAsCommitsKeepComing() {
        start(true, true);
        destination.topic("source.orders", 1);
        commit("billing", "orders", 0, 10);
        flush();
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        assertEquals(1.0, registry.get("sextant.destination.up").gauge().value());

        destination.unreachable = true;
        for (int second = 1; second <= 20; second++) {
            commit("billing", "orders", 0, 10 + second); // the group keeps committing: its latest commit stays fresh
            tick(1_000);
        }
        double age = registry.get("sextant.sync.oldest.pending.age").gauge().value();
        assertTrue(age >= 18, "the first unapplied commit is ~20 s old: " + age);
        assertEquals(0.0, registry.get("sextant.destination.up").gauge().value());

        destination.unreachable = false;
        // retried after a growing, jittered pause of at most Backoffs.MAX_RETRY_MS
        for (int second = 0;
             second <= 40 && !Long.valueOf(30).equals(destination.committed("billing", "source.orders", 0));
             second++) {
            tick(1_000);
        }
        assertEquals(30L, destination.committed("billing", "source.orders", 0));
        tick(1_000);
        assertEquals(0.0, registry.get("sextant.sync.oldest.pending.age").gauge().value());
    }

    @Test
    void undecodableRecordsAreCountedAndDeadLetteredWithoutStoppingTheStream() {
        start(true, true);
        destination.topic("source.orders", 1);
        commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0});
        commit("billing", "orders", 0, 10);
        flush();

        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNDECODABLE, record.reason());
        assertTrue(record.detail().contains("__consumer_offsets"), record.detail());
        assertEquals(10L, destination.committed("billing", "source.orders", 0));
        assertEquals(1.0, registry.get("sextant.records.undecodable").counter().count());
    }

    @Test
    void recordsANewerBrokerWritesAreOneDeadLetterPerIntervalWithACount() {
        start(true, true);
        for (int i = 0; i < 50; i++) {
            commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0}); // key type 99: unknown to 4.4
        }
        commits.pipeInput(new byte[] {0, 98, 1, 2}, new byte[] {0, 0}); // another kind: its own dead letter
        assertEquals(2, deadLetters.readValuesToList().size(), "one per kind, not one per record");

        tick(UndecodableRecords.INTERVAL_MS);
        commits.pipeInput(new byte[] {0, 99, 1, 2}, new byte[] {0, 0});
        DeadLetterRecord next = deadLetters.readValue();
        assertTrue(next.detail().contains("and 49 more like it"), next.detail());
        assertTrue(deadLetters.isEmpty());
        assertEquals(52.0, registry.get("sextant.records.undecodable").counter().count());
    }

    @Test
    void poisonOnTheSharePositionsTopicIsDeadLetteredAndTheStreamGoesOn() {
        start(true, true);
        destination.topic("source.orders", 1);
        TestInputTopic<byte[], byte[]> sharePositions = driver.createInputTopic(APP + "-share-positions",
                Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        sharePositions.pipeInput("shipping".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3});
        sharePositions.pipeInput(null, new byte[36]);
        sharePositions.pipeInput("shipping".getBytes(StandardCharsets.UTF_8), (byte[]) null);
        commit("billing", "orders", 0, 10);
        flush();

        DeadLetterRecord record = deadLetters.readValue();
        assertEquals(Reason.UNDECODABLE, record.reason());
        assertTrue(record.detail().contains("share position of 3 bytes"), record.detail());
        assertEquals(3.0, registry.get("sextant.records.undecodable").tag("topic", APP + "-share-positions")
                .counter().count());
        assertEquals(10L, destination.committed("billing", "source.orders", 0), "a normal group still syncs");
    }

    @Test
    void shareGroupsAndDeletedOffsetsAreNotSyncedAsConsumerGroups() {
        start(true, true);
        destination.topic("source.orders", 1);
        KeyValue<byte[], byte[]> share = shareGroup("shipping");
        commits.pipeInput(share.key, share.value);
        KeyValue<byte[], byte[]> classic = classicGroup("billing", "consumer");
        commits.pipeInput(classic.key, classic.value);
        commit("billing", "orders", 0, 10);
        KeyValue<byte[], byte[]> deleted = offsetDeleted("billing", "orders", 0);
        commits.pipeInput(deleted.key, deleted.value);
        flush();

        assertNull(position("billing", "orders", 0));
        assertEquals(0, destination.alterCalls.get());
    }

    @Test
    void prunesHistoryBelowTheFloorButKeepsTheSyncThatTranslatesIt() {
        start(false, true);
        destination.topic("source.orders", 1);
        for (long u = 0; u <= 1000; u += 100) {
            sync("orders", 0, u, u + 5);
        }
        floorAnswer.put(new TopicPartition("orders", 0), 450L);
        tick(PRUNE_INTERVAL);
        tick(1_000);
        tick(1_000);

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(400, history.oldest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(1000, history.newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(4.0, registry.get("sextant.history.pruned").counter().count());

        commit("billing", "orders", 0, 450); // the floor itself still translates
        flush();
        assertEquals(406L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void aSyncReadAgainAfterARestartKeepsTheHistoryButANewLogResetsIt() {
        start(false, true);
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        sync("orders", 0, 300, 1200);
        sync("orders", 0, 200, 1100); // read again: the writer's input offset was not committed before a crash
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(100, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "history intact");

        sync("orders", 0, 50, 1300); // upstream back, downstream on, the source log still reaches 300: MM2 restarted
        assertEquals(100, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "one record's say-so: kept");
        assertEquals(300, history.newest("orders", 0).orElseThrow().upstreamOffset(), "the first copies' syncs stay");
        assertTrue(deadLetters.isEmpty(), "copied again is normal, not poison");
        assertEquals(1.0, registry.get("sextant.offset.syncs.remirrored").counter().count());

        recreateSourceTopic("orders", 0, 6);
        sync("orders", 0, 5, 1300); // the source topic was recreated: its log is now shorter than the history
        assertEquals(5, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "old log forgotten");
        assertEquals(5, history.newest("orders", 0).orElseThrow().upstreamOffset());
    }

    @Test
    void aSourceTopicRecreatedWithALongerLogIsToldByItsTopicIdAndTheOldSyncsNoLongerTranslate() {
        ordersWithSyncsUpTo300AndItsIdRecorded();
        commit("billing", "orders", 0, 250);
        flush();
        assertEquals(201L, destination.committed("billing", "source.orders", 0));

        // deleted and created again; MirrorMaker 2 goes on from its old position: nothing in the syncs or the log
        // ends tells the new incarnation from the old one
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sourceEnds.put(new TopicPartition("orders", 0), 2_000L);
        commit("early", "orders", 0, 150); // on the new incarnation, read before the check
        flush();
        assertEquals(101L, destination.committed("early", "source.orders", 0), "through the old syncs, for now");
        sync("orders", 0, 400, 400); // read since the last check: may be the new incarnation's, kept

        tick(5_000);
        flush();

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertEquals(400, history.oldest("orders", 0).orElseThrow().upstreamOffset(), "the old incarnation's gone");
        assertEquals(1.0, registry.get("sextant.offset.sync.history.resets").counter().count());
        assertEquals(PositionStatus.UNTRANSLATABLE, position("early", "orders", 0).status(),
                "applied through syncs that are gone: reported, not clean");
        assertEquals(101L, destination.committed("early", "source.orders", 0), "the destination keeps what it has");
        commit("late", "orders", 0, 450);
        flush();
        assertEquals(401L, destination.committed("late", "source.orders", 0), "through the new incarnation's syncs");
    }

    /**
     * A write translated through the old incarnation's syncs and still unanswered when the recreation is found: once
     * the destination answers, the position is planned again rather than settling as applied (seen in CI: a commit
     * on the new incarnation below the old syncs stayed {@code APPLIED}).
     */
    @Test
    void aWriteInFlightWhenTheHistoryIsForgottenIsPlannedAgainOnceAnswered() {
        ordersWithSyncsUpTo300AndItsIdRecorded();
        flush();

        sourceIdsByName.put("orders", Uuid.randomUuid());
        sourceEnds.put(new TopicPartition("orders", 0), 2_000L);
        destination.holdWrites = true;
        commit("early", "orders", 0, 150); // on the new incarnation, planned through the old syncs
        flush();
        assertEquals(1, destination.heldWrites(), "the write is in flight");
        sync("orders", 0, 400, 400);
        tick(5_000); // the check sees the new id: the history is forgotten while the write is unanswered
        flush();

        destination.holdWrites = false;
        destination.releaseWrites();
        flush();
        flush();
        assertEquals(101L, destination.committed("early", "source.orders", 0), "written before the check answered");
        assertEquals(PositionStatus.UNTRANSLATABLE, position("early", "orders", 0).status(),
                "translated through syncs that are gone: reported, not clean");
    }

    @Test
    void theIdATopicsHistoryBelongsToIsTheOneSeenWhenItsFirstSyncWasCheckedNotAtTheFirstPeriodicCheck() {
        start(false, true);
        destination.topic("source.orders", 1);
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sync("orders", 0, 100, 100);
        sync("orders", 0, 200, 200);
        // recreated before any periodic check: that check must not take the new id for the one the history began with
        sourceIdsByName.put("orders", Uuid.randomUuid());
        tick(5_000);
        flush();

        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        assertTrue(OffsetSyncStore.reader(store).newest("orders", 0).isEmpty(), "the old incarnation's syncs gone");
        assertEquals(1.0, registry.get("sextant.offset.sync.history.resets").counter().count());
    }

    @Test
    void aSyncThatMovesTheDownstreamBackForgetsTheSyncsItContradicts() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 1000);
        sync("orders", 0, 200, 1100);
        sync("orders", 0, 300, 1200);
        sync("orders", 0, 400, 1150); // the mirror was truncated: upstream on, downstream back below 1200
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        OffsetSyncStore history = OffsetSyncStore.reader(store);
        assertTrue(history.latestAtOrBelow("orders", 0, 350).orElseThrow().downstreamOffset() < 1150,
                "a commit below the new sync translates below its downstream offset");
        assertEquals(200, history.latestAtOrBelow("orders", 0, 399).orElseThrow().upstreamOffset(),
                "300 -> 1200 contradicted and forgotten");
        assertEquals(400, history.newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(1.0, registry.get("sextant.offset.syncs.contradicted").counter().count());

        commit("billing", "orders", 0, 350);
        flush();
        assertEquals(1101L, destination.committed("billing", "source.orders", 0), "200 -> 1100, +1: not past 1150");
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void syncsThatDoNotDescribeTheLogsNeverEnterTheHistory() {
        start(false, true);
        destination.topic("source.orders", 1);
        sync("orders", 0, 100, 100);
        rawSync("orders", 0, Long.MAX_VALUE - 5, 200);   // would freeze the history: later syncs look like re-reads
        rawSync("orders", 0, 300, Long.MAX_VALUE);        // would overflow downstream + 1
        rawSync("orders", 0, -7, 5);
        rawSync("gone", 0, 10, 10);                       // a topic the source does not have
        missingSourceTopics.add("gone");
        sync("orders", 0, 400, 400);                      // a genuine sync after the poison still counts

        commit("billing", "orders", 0, 450);
        flush();

        assertEquals(401L, destination.committed("billing", "source.orders", 0), "translated with the 400 sync");
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(OffsetSyncStore.NAME);
        assertEquals(400, OffsetSyncStore.reader(store).newest("orders", 0).orElseThrow().upstreamOffset());
        assertEquals(4.0, registry.get("sextant.offset.syncs.rejected").counter().count());
        List<DeadLetterRecord> refused = deadLetters.readValuesToList();
        assertEquals(2, refused.size(), "one per source partition per minute: orders-0 and gone-0");
        assertTrue(refused.stream().allMatch(r -> r.reason() == Reason.INVALID_OFFSET_SYNC), refused.toString());
    }

    /** Syncs of orders-0 at 100, 200 and 300 (one to one), and a first id check that records its incarnation. */
    private void ordersWithSyncsUpTo300AndItsIdRecorded() {
        start(false, true);
        destination.topic("source.orders", 1);
        sourceIdsByName.put("orders", Uuid.randomUuid());
        sync("orders", 0, 100, 100);
        sync("orders", 0, 200, 200);
        sync("orders", 0, 300, 300);
        tick(5_000);
    }

    private void recreateSourceTopic(String topic, int partition, long newEnd) {
        sourceEnds.put(new TopicPartition(topic, partition), newEnd);
    }

    // ---- share groups -------------------------------------------------------------------------------------------

    private static final Uuid ORDERS_ID = Uuid.randomUuid();

    private void pipe(TestInputTopic<byte[], byte[]> topic, KeyValue<byte[], byte[]> kv) {
        topic.pipeInput(kv.key, kv.value);
    }

    private void shareGroupOnSource(String group) {
        pipe(commits, shareGroup(group));
        pipe(commits, CoordinatorRecords.shareGroupTopics(group, ORDERS_ID, "orders", 3));
    }

    @Test
    void appliesTheEffectiveShareStartOffsetPastTheAcknowledgedPrefix() {
        start(true, true);
        destination.topic("source.orders", 3);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 10));
        pipe(shareState, CoordinatorRecords.shareUpdate("shipping", ORDERS_ID, 0, 10,
                new CoordinatorRecords.Batch(10, 29, 2)));
        flush();

        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0),
                "acknowledged 10..29 are not redelivered");
        assertEquals(0, destination.alterCalls.get(), "never written as a consumer group");
        assertEquals(1, destination.shareAlterCalls.get());
        PartitionPosition p = position("shipping", "orders", 0);
        assertEquals(PositionStatus.APPLIED, p.status());
        assertEquals(30, p.sourceOffset());
    }

    @Test
    void aLateWriteOfAnOlderSharePositionAfterATakeoverIsOverwrittenWithTheNewerOne() {
        start(true, true);
        destination.topic("source.orders", 3);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 30));
        flush();
        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0));

        // the instance that owned the task before: its write of an older start offset reaches the broker now
        destination.shareOffsets.get("shipping").put(new TopicPartition("source.orders", 0), 10L);
        tick(TakeoverAudit.INTERVAL_MS);
        flush();

        assertEquals(30L, destination.startOffset("shipping", "source.orders", 0), "the newer one written again");
        assertEquals(PositionStatus.APPLIED, position("shipping", "orders", 0).status());
        assertEquals(1.0, registry.get("sextant.stale.writes.repaired").counter().count());
    }

    @Test
    void translatesShareOffsetsThroughTheOffsetSyncs() {
        start(false, true);
        destination.topic("source.orders", 3);
        sync("orders", 1, 0, 100);
        sync("orders", 1, 50, 150);
        shareGroupOnSource("shipping");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 1, 0,
                new CoordinatorRecords.Batch(0, 49, 2),
                new CoordinatorRecords.Batch(50, 59, 4),
                new CoordinatorRecords.Batch(60, 60, 0)));
        flush();

        assertEquals(151L, destination.startOffset("shipping", "source.orders", 1), "60 -> sync 50->150, +1");
        assertEquals(9, position("shipping", "orders", 1).bound());
    }

    @Test
    void aConsumerGroupOfTheSameNameIsATypeConflictAndAnActiveShareGroupIsLeftAlone() {
        start(true, true);
        destination.topic("source.orders", 3);
        destination.emptyConsumerGroup("shipping");
        destination.activeShareGroup("packing");
        shareGroupOnSource("shipping");
        shareGroupOnSource("packing");
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", ORDERS_ID, 0, 5));
        pipe(shareState, CoordinatorRecords.shareSnapshot("packing", ORDERS_ID, 0, 7));
        commit("billing", "orders", 0, 42); // a consumer group syncing beside them
        flush();

        List<DeadLetterRecord> records = deadLetters.readValuesToList();
        assertEquals(2, records.size(), records.toString());
        assertTrue(records.stream().anyMatch(r -> r.group().equals("shipping") && r.reason() == Reason.TYPE_CONFLICT
                && r.groupType().equals("share")));
        assertTrue(records.stream().anyMatch(r -> r.group().equals("packing") && r.reason() == Reason.GROUP_ACTIVE));
        assertNull(destination.startOffset("shipping", "source.orders", 0));
        assertNull(destination.startOffset("packing", "source.orders", 0));
        assertEquals(42L, destination.committed("billing", "source.orders", 0));
    }

    @Test
    void namesTopicsByIdFromTheSourceWhenTheGroupRecordIsMissingAndForgetsDeletedState() {
        start(true, true);
        destination.topic("source.orders", 3);
        Uuid unknown = Uuid.randomUuid();
        pipe(commits, shareGroup("shipping"));
        pipe(shareState, CoordinatorRecords.shareSnapshot("shipping", unknown, 2, 12));
        flush();
        assertNull(destination.startOffset("shipping", "source.orders", 2), "name unknown: kept, not written");

        sourceTopicIds.put(unknown, "orders"); // the source's Admin API answered
        flush();
        assertEquals(12L, destination.startOffset("shipping", "source.orders", 2));

        pipe(shareState, CoordinatorRecords.shareStateDeleted("shipping", unknown, 2));
        flush();
        assertNull(position("shipping", "orders", 2));
    }
}
