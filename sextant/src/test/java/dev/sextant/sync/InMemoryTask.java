package dev.sextant.sync;

import dev.sextant.apply.DestinationView;
import dev.sextant.apply.GroupApplier;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.Cutovers;
import dev.sextant.state.GroupStore;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * What one task's planner and settler work with, in memory and on a clock the test moves: the position and group
 * stores, the pending set, a destination and its view, offset translations and sync heads set by hand, and what
 * comes out (dead-letter records, checkpoints, meters). Source topics mirror to {@code source.<topic>}.
 */
final class InMemoryTask {

    static final String APP = TaskFakes.APP;
    static final long PENDING_TIMEOUT_MS = TaskFakes.PENDING_TIMEOUT_MS;

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    final SyncSettings settings = TaskFakes.settings(clock);
    final InMemoryDestination destination = new InMemoryDestination();
    final DestinationView view = new DestinationView(destination, clock);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final SextantMetrics metrics = new SextantMetrics(registry);
    final IndexedPositions positions = new IndexedPositions(PositionStore.of(InMemoryStores.bytesStore("positions")));
    final GroupStore groups = GroupStore.of(InMemoryStores.stringStore("groups"));
    final PendingGroups pending = new PendingGroups();
    /** Per source partition, the newest offset sync's upstream offset (no entry: no history). */
    final Map<TopicPartition, Long> heads = new HashMap<>();
    final BoundedPositions bounded = new BoundedPositions(heads::get);
    final List<DeadLetterRecord> deadLetters = new ArrayList<>();
    /** Checkpoints emitted, as {@code group destination-partition upstream->downstream}. */
    final List<String> checkpoints = new ArrayList<>();
    /** Source topic names by id, as the source's Admin API would answer. */
    final Map<Uuid, String> sourceTopicIds = new HashMap<>();
    private final Map<TopicPartition, OffsetTranslation> translations = new HashMap<>();
    /** How often the translator was asked. */
    int translationLookups;

    private final OffsetTranslator translator = (topic, partition, offset) -> {
        translationLookups++;
        OffsetTranslation t = translations.get(new TopicPartition(topic, partition));
        return Optional.ofNullable(t).filter(known -> known.sourceOffset() == offset);
    };
    final UncoveredPositions uncovered = new UncoveredPositions(heads::get, translator);
    private final SyncRuntime runtime = TaskFakes.runtime(view, destination, sourceTopicIds, metrics);
    private final GroupReasonReporter reasons = new GroupReasonReporter(settings, positions, groups, view, metrics,
            deadLetters::add);

    WritePlanner planner() {
        return new WritePlanner(settings, runtime, positions, groups, translator, bounded, uncovered, pending,
                reasons);
    }

    /** A planner to whom the history records {@code mirrors}. */
    WritePlanner planner(MirrorRecords mirrors) {
        return new WritePlanner(settings, runtime, positions, groups, translator, bounded, uncovered, pending,
                reasons, mirrors);
    }

    /** The task's intake of source records, over the same stores and pending set; every group and topic included. */
    CommitIntake intake() {
        return new CommitIntake(settings, runtime, new IncludedNames(settings.includeGroup()),
                new IncludedNames(settings.includeTopic()), positions, groups, pending,
                new CutoverHold(runtime.cutovers(), settings, metrics, deadLetters::add));
    }

    /** The groups cut over to the destination, as the instance knows them. */
    Cutovers cutovers() {
        return runtime.cutovers();
    }

    /**
     * The task's flush over the same stores, pending set and view, with identity translation, writing through
     * {@code applier} (both phases).
     */
    GroupSyncFlusher flusher(GroupApplier applier) {
        SyncRuntime through = new SyncRuntime(view, applier, applier, new QuietSourceOffsets(), runtime.topicNames(),
                metrics);
        return new GroupSyncFlusher(settings, through, positions, groups, pending, null, new IdentityTranslator(),
                bounded, SyncGauges.registered(metrics, clock), deadLetters::add);
    }

    WriteSettler settler() {
        return new WriteSettler(positions, groups, bounded, pending, reasons, metrics,
                TaskFakes.recording(checkpoints));
    }

    long now() {
        return clock.millis();
    }

    void advance(long millis) {
        clock.advance(Duration.ofMillis(millis));
    }

    /** A new source commit of {@code offset} now, as the task takes it in. */
    void commit(PositionKey key, long offset) {
        PartitionPosition old = positions.get(key);
        positions.put(key, old == null ? PartitionPosition.committed(offset, now()) : old.withCommit(offset, now()));
        pending.mark(key, now());
    }

    /** {@code offset} of the key's source partition translates to {@code destinationOffset}, within {@code bound}. */
    void translates(PositionKey key, long offset, long destinationOffset, long bound) {
        translations.put(new TopicPartition(key.topic(), key.partition()),
                OffsetTranslation.bounded(offset, destinationOffset, bound));
    }

    /** The destination has the mirror of {@code sourceTopic}, and the view has looked it up. */
    void mirrored(String sourceTopic, int partitions) {
        destination.topic(mirror(sourceTopic), partitions);
        lookUp(sourceTopic);
    }

    /** The view has looked the mirror of {@code sourceTopic} up (and found what the destination has). */
    void lookUp(String sourceTopic) {
        view.partition(mirror(sourceTopic), 0);
        view.refreshNow();
    }

    static String mirror(String sourceTopic) {
        return "source." + sourceTopic;
    }

    double counter(String name) {
        return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
