package dev.sextant.metrics;

import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Sextant's own meters (Kafka Streams' client metrics are bound next to them by the application). Counters are
 * looked up once and cached, so the per-commit path costs a map lookup and an add.
 */
public final class SextantMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<GroupKind, Timer> latency = new ConcurrentHashMap<>();
    private final AtomicLong groupsTracked = new AtomicLong();
    private final AtomicLong partitionsHeld = new AtomicLong();
    private final Map<GroupKind, DistributionSummary> replayBounds =
            new ConcurrentHashMap<>();

    private final Map<GroupKind, Counter> commitsRead = new EnumMap<>(GroupKind.class);

    public SextantMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("sextant.groups.tracked", groupsTracked);
        registry.gauge("sextant.coordinator.partitions.held", partitionsHeld);
        for (GroupKind type : GroupKind.values()) {
            commitsRead.put(type, counter("sextant.commits.read", "group_type", type.label()));
        }
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** A source commit read from {@code __consumer_offsets} (or a share start offset from the state topic). */
    public void commitRead(GroupKind type) {
        commitsRead.get(type).increment(); // the per-commit path: no lookup by name
    }

    /** A record of an input topic that could not be decoded. */
    /** A stream processor threw on a record, or a record could not be produced; the thread went on without it. */
    public void streamsError(String where, String exception) {
        counter("sextant.streams.errors", "where", where, "exception", exception).increment();
    }

    /** A stream thread died and was replaced. */
    public void streamThreadReplaced() {
        counter("sextant.stream.threads.replaced").increment();
    }

    /** An offset sync that does not describe the two logs was refused. */
    public void offsetSyncRejected() {
        counter("sextant.offset.syncs.rejected").increment();
    }

    /** Applied consumer-group offsets written again, unchanged, before the destination's retention deletes them. */
    public void offsetsRefreshed(int offsets) {
        counter("sextant.offsets.refreshed").increment(offsets);
    }

    /** Offset syncs forgotten because a newer sync moved the downstream back past them (the mirror went back). */
    public void offsetSyncsContradicted(int syncs) {
        counter("sextant.offset.syncs.contradicted").increment(syncs);
    }

    /** Offset syncs of records MirrorMaker 2 copied again after a restart: skipped, the first copies' syncs kept. */
    /** Commits taken past a transaction that holds a partition of {@code __consumer_offsets} back. */
    public void commitsPastOpenTransactions(int commits) {
        counter("sextant.commits.past.open.transactions").increment(commits);
    }

    /** Partitions of {@code __consumer_offsets} this instance reads that an open transaction holds back now. */
    public void partitionsHeldByTransactions(int partitions) {
        partitionsHeld.set(partitions);
    }

    /** Partition histories forgotten as a whole: the source topic was recreated. */
    public void offsetSyncHistoryResets(int partitions) {
        counter("sextant.offset.sync.history.resets").increment(partitions);
    }

    public void offsetSyncRemirrored() {
        counter("sextant.offset.syncs.remirrored").increment();
    }

    /**
     * The destination held an older commit than one Sextant had applied (a late write of the instance that owned the
     * group before a rebalance), and the newer one is written again.
     */
    /** Applied consumer-group offsets found gone from the destination (their group unlisted) and written again. */
    public void offsetsVanished(int offsets) {
        counter("sextant.offsets.vanished").increment(offsets);
    }

    public void staleWriteRepaired() {
        counter("sextant.stale.writes.repaired").increment();
    }

    public void undecodable(String topic) {
        counter("sextant.records.undecodable", "topic", topic).increment();
    }

    /** A known record type that Sextant has no use for, or an unknown one that was skipped. */
    public void skipped(String what) {
        counter("sextant.records.skipped", "record", what).increment();
    }

    public void filtered(String what) {
        counter("sextant.records.filtered", "by", what).increment();
    }

    public void applied(GroupKind type, int partitions) {
        counter("sextant.positions.applied", "group_type", type.label()).increment(partitions);
    }

    public void refused(GroupKind type, Reason reason, int partitions) {
        counter("sextant.positions.refused", "group_type", type.label(), "reason", reason.name()).increment(partitions);
    }

    /**
     * A group's write planned with no source commit behind it: a closer translation, a proven interval, a refresh
     * before the destination's retention, offsets found gone or overwritten.
     */
    public void replanned(GroupKind type) {
        counter("sextant.writes.replanned", "group_type", type.label()).increment();
    }

    public void retried(GroupKind type) {
        counter("sextant.apply.retries", "group_type", type.label()).increment();
    }

    public void adminRequest(String call) {
        adminRequest(call, 1);
    }

    /** Admin requests sent to the destination, by call (a batched call counts once). */
    public void adminRequest(String call, int count) {
        counter("sextant.admin.requests", "call", call).increment(count);
    }

    public void deadLetter(Reason reason) {
        counter("sextant.deadletter.records", "reason", reason.name()).increment();
    }

    /** Source commit timestamp to the moment the destination acknowledged the write. */
    public void syncLatency(GroupKind type, long millis) {
        latency.computeIfAbsent(type, t -> Timer.builder("sextant.sync.latency")
                .description("source commit to destination apply")
                .tag("group_type", t.label())
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry)).record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    public void replayBound(GroupKind type, long bound) {
        replayBounds.computeIfAbsent(type, t -> registry.summary("sextant.replay.bound", "group_type", t.label()))
                .record(bound);
    }

    /** A translation beyond the mirror's log end (the mirror lags, or was truncated): written at the end instead. */
    public void beyondLogEnd(GroupKind type) {
        counter("sextant.positions.beyond.log.end", "group_type", type.label()).increment();
    }

    /**
     * Age of the oldest source commit not yet written to the destination (Prometheus
     * {@code sextant_sync_oldest_pending_age_seconds}): the one to alert on, it keeps rising while nothing applies.
     */
    public void oldestPendingAge(DoubleSupplier seconds) {
        Gauge.builder("sextant.sync.oldest.pending.age", seconds::getAsDouble)
                .baseUnit("seconds")
                .description("Age of the oldest source commit not yet written to the destination")
                .register(registry);
    }

    /** 1 while the destination answers (its last refresh succeeded), else 0 ({@code sextant_destination_up}). */
    public void destinationUp(BooleanSupplier up) {
        Gauge.builder("sextant.destination.up", () -> up.getAsBoolean() ? 1 : 0)
                .description("1 while the destination answers, else 0")
                .register(registry);
    }

    /**
     * {@code sextant_destination_cluster_changed}: 1 while the destination is not the cluster Sextant's history pins
     * (nothing is written until {@code sextant rebaseline --apply}), else 0.
     */
    public void sourceClusterChanged(BooleanSupplier changed) {
        Gauge.builder("sextant.source.cluster.changed", () -> changed.getAsBoolean() ? 1 : 0)
                .description("1 while groups are refused because their destination offsets were written from "
                        + "another source cluster (writes held until 'sextant rebaseline --source --apply'), else 0")
                .register(registry);
    }

    public void destinationClusterChanged(BooleanSupplier changed) {
        Gauge.builder("sextant.destination.cluster.changed", () -> changed.getAsBoolean() ? 1 : 0)
                .description("1 while the destination is not the cluster Sextant wrote to so far (writes held "
                        + "until 'sextant rebaseline --apply'), else 0")
                .register(registry);
    }

    /**
     * Groups cut over to the destination ({@code sextant_groups_cut_over}): the sync no longer moves them from the
     * source.
     */
    public void groupsCutOver(LongSupplier count) {
        Gauge.builder("sextant.groups.cut.over", count::getAsLong)
                .description("Groups cut over to the destination ('sextant cutover'): never moved from the source "
                        + "again")
                .register(registry);
    }

    /** Groups of one kind in one sync state ({@code sextant_groups{group_type,state}}): in_sync, pending, refused. */
    public void groupsInState(GroupKind type, String state, LongSupplier count) {
        Gauge.builder("sextant.groups", count::getAsLong)
                .description("Groups by sync state: in_sync, pending (a commit still to write), refused (a dead-letter "
                        + "reason stands)")
                .tags("group_type", type.label(), "state", state)
                .register(registry);
    }

    /** Partitions with a source commit not on the destination yet ({@code sextant_positions_pending}). */
    public void positionsPending(LongSupplier count) {
        Gauge.builder("sextant.positions.pending", count::getAsLong)
                .description("Partitions with a source commit not written to the destination yet")
                .register(registry);
    }

    /**
     * Offset writes to the destination: how many may be in flight now ({@code sextant_destination_write_limit}, which
     * adapts to how fast the destination answers, up to {@code sync.write.parallelism}), how many are
     * ({@code sextant_destination_writes_in_flight}) and how many wait for the limit
     * ({@code sextant_destination_writes_queued}).
     */
    public void destinationWrites(LongSupplier limit, LongSupplier inFlight,
                                  LongSupplier queued) {
        Gauge.builder("sextant.destination.write.limit", limit::getAsLong)
                .description("Offset writes that may be in flight to the destination now (adaptive, at most "
                        + "sync.write.parallelism)")
                .register(registry);
        Gauge.builder("sextant.destination.writes.in.flight", inFlight::getAsLong)
                .description("Offset writes sent to the destination and not answered yet")
                .register(registry);
        Gauge.builder("sextant.destination.writes.queued", queued::getAsLong)
                .description("Offset writes waiting for the write limit")
                .register(registry);
    }

    /**
     * An interval between two offset syncs checked against the records
     * ({@code sextant_offset_sync_intervals_total{verdict}}): proven (commits inside translate exactly), refuted, or
     * unverifiable (too long, its records gone, the read denied).
     */
    public void intervalChecked(String verdict) {
        counter("sextant.offset.sync.intervals", "verdict", verdict).increment();
    }

    /** Records read to check intervals ({@code sextant_offset_sync_interval_records_read_total{cluster}}). */
    public void intervalRecordsRead(String cluster, int records) {
        counter("sextant.offset.sync.interval.records.read", "cluster", cluster).increment(records);
    }

    /** Intervals waiting for their check ({@code sextant_offset_sync_intervals_queued}). */
    public void intervalsQueued(LongSupplier count) {
        Gauge.builder("sextant.offset.sync.intervals.queued", count::getAsLong)
                .description("Intervals between offset syncs waiting to be checked against the records")
                .register(registry);
    }

    /**
     * Topics whose records Sextant was denied reading to prove intervals, and not allowed since
     * ({@code sextant_offset_sync_interval_topics_denied}): their commits between syncs keep the bounded rule.
     */
    public void intervalTopicsDenied(LongSupplier count) {
        Gauge.builder("sextant.offset.sync.interval.topics.denied", count::getAsLong)
                .description("Topics whose records Sextant may not read to prove intervals between offset syncs")
                .register(registry);
    }

    public void historyPruned(int syncs) {
        counter("sextant.history.pruned").increment(syncs);
    }

    public void groupsTrackedDelta(long delta) {
        groupsTracked.addAndGet(delta);
    }

    private Counter counter(String name, String... tags) {
        String key = name + String.join("|", tags);
        return counters.computeIfAbsent(key, k -> Counter.builder(name).tags(tags).register(registry));
    }
}
