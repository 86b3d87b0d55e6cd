package dev.sextant.topology;

import static dev.sextant.testing.CoordinatorRecords.offsetCommit;
import static dev.sextant.testing.CoordinatorRecords.offsetSync;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.OverwritePolicy;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.translate.IntervalEvidence;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the group-sync topology tests build: the whole topology (decode, filter, translate, coalesce, guard,
 * dead-letter) in a {@link TopologyTestDriver}, over an in-memory destination, a {@link FakeSource} and a clock the
 * tests move; its input topics and dead letters, and the helpers that pipe commits and syncs, let time pass and read
 * positions. Each test class of a theme extends it; a test starts the topology itself ({@link #start}), after setting
 * what the start reads ({@link #untranslatableEarliest}, {@link #evidence}).
 */
abstract class GroupSyncFixture {

    static final String APP = "sextant-test";
    static final String SYNCS = "mm2-offset-syncs.destination.internal";
    static final long INTERVAL = 250;
    static final long PENDING_TIMEOUT = 5_000;
    static final long PRUNE_INTERVAL = 10_000;

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    final InMemoryDestination destination = new InMemoryDestination();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final FakeSource source = new FakeSource();
    /** The source's prune floors. */
    final Map<TopicPartition, Long> floorAnswer = source.floors;
    /** The source's topic names by id. */
    final Map<Uuid, String> sourceTopicIds = source.names;
    /** The source's log ends as the offset-sync check sees them; {@link #sync} keeps them past each sync. */
    final Map<TopicPartition, Long> sourceEnds = source.ends;
    final Set<String> missingSourceTopics = source.missingTopics;
    /** Source log starts this test knows; the source answers none for other partitions. */
    final Map<TopicPartition, Long> sourceStarts = source.starts;
    boolean untranslatableEarliest;
    /** True: the destination's alias is known ({@code destination}), as in a two-way setup. */
    boolean twoWay;
    /** True: {@code source.offsets.read=admin}, the commits read from Sextant's own topic ({@link #commits}). */
    boolean adminCommits;
    /** The source's topic ids by name, as the incarnation check sees them. */
    final Map<String, Uuid> sourceIdsByName = source.ids;
    @TempDir
    Path stateDir;
    TopologyTestDriver driver;
    final SextantMetrics metrics = new SextantMetrics(registry);
    /** What translation takes as proof of an interval between syncs: nothing, unless a test says otherwise. */
    IntervalEvidence evidence = IntervalEvidence.NONE;
    TestInputTopic<byte[], byte[]> commits;
    TestInputTopic<byte[], byte[]> syncs;
    TestOutputTopic<String, DeadLetterRecord> deadLetters;
    TestInputTopic<byte[], byte[]> shareState;
    DestinationView view;

    void start(boolean identity, boolean followRewinds) {
        SyncSettings settings = TestSettings.groupSync(APP, SYNCS,
                new Timing(INTERVAL, PENDING_TIMEOUT, PRUNE_INTERVAL, 30_000),
                new OffsetRules(identity, followRewinds, untranslatableEarliest),
                clock, twoWay ? "destination" : null);
        if (adminCommits) {
            settings = TestSettings.withAdminCommits(settings);
        }
        view = new DestinationView(destination);
        view.refreshNow();
        ConsumerGroupApplier applier = new ConsumerGroupApplier(destination, new OffsetOwnership(APP),
                new OverwritePolicy(followRewinds, false), new AccessDenials(Clock.systemUTC()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        // not /tmp/kafka-streams: builds run side by side
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        SyncRuntime runtime = new SyncRuntime(view, applier, new ShareGroupApplier(destination), source,
                source, metrics).withEvidence(evidence);
        driver = new TopologyTestDriver(SextantTopology.build(settings, runtime), props, clock.instant());
        commits = driver.createInputTopic(settings.commitsTopic(), Serdes.ByteArray().serializer(),
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

    void commit(String group, String topic, int partition, long offset) {
        KeyValue<byte[], byte[]> kv = offsetCommit(group, topic, partition, offset, clock.millis());
        commits.pipeInput(kv.key, kv.value, clock.instant()); // read as soon as it is made
    }

    /** A sync as MirrorMaker 2 emits it: of a record that exists on both clusters. */
    void sync(String topic, int partition, long upstream, long downstream) {
        sourceEnds.merge(new TopicPartition(topic, partition), upstream + 1, Math::max);
        destination.ends.merge(new TopicPartition("source." + topic, partition),
                downstream + 1, Math::max);
        rawSync(topic, partition, upstream, downstream);
    }

    /** Any sync, whether or not the logs have such records. */
    void rawSync(String topic, int partition, long upstream, long downstream) {
        KeyValue<byte[], byte[]> kv = offsetSync(topic, partition, upstream, downstream);
        syncs.pipeInput(kv.key, kv.value);
    }

    /**
     * Three punctuations: the view learns of new destination topics, the writes are sent, their outcomes settle.
     */
    void flush() {
        tick(INTERVAL);
        tick(INTERVAL);
        tick(INTERVAL);
    }

    void tick(long millis) {
        view.refreshNow();
        clock.advance(Duration.ofMillis(millis));
        driver.advanceWallClockTime(Duration.ofMillis(millis));
    }

    PartitionPosition position(String group, String topic, int partition) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(PositionStore.NAME);
        return PositionStore.of(store).get(new PositionKey(group, topic, partition));
    }

    void pipe(TestInputTopic<byte[], byte[]> topic, KeyValue<byte[], byte[]> kv) {
        topic.pipeInput(kv.key, kv.value);
    }
}
