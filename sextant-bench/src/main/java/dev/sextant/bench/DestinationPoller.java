package dev.sextant.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Watches one syncer's groups on the destination: every cycle, one batched {@code listConsumerGroupOffsets} for
 * the groups that have a commit the destination does not show yet (chunks of {@value #CHUNK} groups, up to
 * {@value #CALLS_IN_FLIGHT} asked at a time), then resolves what each chunk's answer shows. A cycle starts at most
 * every {@code minPeriodMillis}, and at most every 8 cycle durations up to 5 s (so the poller stays light when
 * thousands of groups are outstanding); the resolution of a latency sample is one cycle (it is stamped with the time
 * its chunk's answer arrived, an upper bound).
 * Each poller has its own Admin client: one Admin client has one request in flight, so shared pollers would wait
 * for each other.
 */
final class DestinationPoller implements AutoCloseable {

    static final int CHUNK = 1_000;
    /** Chunks asked at a time (see {@link #poll}). */
    static final int CALLS_IN_FLIGHT = 8;

    private final String system;
    private final Admin admin;
    private final List<TrackedGroup> groups;
    private final long minPeriodMillis;
    private final TrackedGroup.Translator best;
    /** Every resolved steady-state commit of a caught-up group: {commit returned (nanoTime), latency (ns)}. */
    private final Queue<long[]> steadyTrace = new ConcurrentLinkedQueue<>();
    private final Samples caughtUpLatency = new Samples();
    private final Samples laggingLatency = new Samples();
    private final Samples cycleMillis = new Samples();
    private final Samples liveReplay = new Samples();
    private final Samples caughtUpCensored = new Samples();
    private final Samples laggingCensored = new Samples();
    /** Latencies of the groups' initial sync (their commit from before the syncers started), kept apart. */
    private final Samples initialLatency = new Samples();
    private volatile boolean initialPhase;
    private Thread thread;
    private volatile boolean running;
    private volatile Exception lastError;

    DestinationPoller(String system, Map<String, Object> destinationConfig, List<TrackedGroup> groups,
                      long minPeriodMillis, TrackedGroup.Translator best) {
        this.system = system;
        this.best = best;
        Map<String, Object> config = new HashMap<>(destinationConfig);
        config.put("client.id", "bench-poller-" + system);
        this.admin = Admin.create(config);
        this.groups = groups;
        this.minPeriodMillis = minPeriodMillis;
    }

    void start() {
        running = true;
        thread = new Thread(this::run, "bench-poller-" + system);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            long sent = System.nanoTime();
            List<TrackedGroup> due = new ArrayList<>();
            for (TrackedGroup g : groups) {
                if (g.hasOutstanding()) {
                    due.add(g);
                }
            }
            if (!due.isEmpty()) {
                try {
                    poll(due);
                    cycleMillis.add((System.nanoTime() - sent) / 1e6);
                } catch (Exception e) {
                    lastError = e;
                }
            }
            long took = (System.nanoTime() - sent) / 1_000_000L;
            long wait = Math.max(minPeriodMillis, Math.min(8 * took, 5_000)) - took;
            if (wait > 0 && running) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Every group's destination offsets as last read, as one comparable string. */
    String destinationSnapshot() {
        StringBuilder out = new StringBuilder();
        for (TrackedGroup g : groups) {
            out.append(Arrays.toString(g.destinationOffsets())).append(';');
        }
        return out.toString();
    }

    /** Reads every group now (not only those with outstanding commits); for the final state. */
    void pollAll() throws Exception {
        poll(groups);
    }

    /**
     * Reads {@code due} in chunks of {@value #CHUNK} groups, at most {@value #CALLS_IN_FLIGHT} chunks asked at a
     * time: an Admin call's time-out runs from when it is made, and one Admin client sends one request at a time, so
     * 100 chunks asked at once (100,000 groups) would leave the last ones waiting behind the others. A chunk that
     * fails is skipped (its groups are read on the next cycle); the first failure is thrown once every chunk was
     * tried.
     */
    private void poll(List<TrackedGroup> due) throws Exception {
        ArrayDeque<Call> calls = new ArrayDeque<>();
        Exception failure = null;
        int next = 0;
        while (next < due.size() || !calls.isEmpty()) {
            while (next < due.size() && calls.size() < CALLS_IN_FLIGHT) {
                List<TrackedGroup> chunk = due.subList(next, Math.min(due.size(), next + CHUNK));
                calls.add(new Call(chunk, System.nanoTime(), admin.listConsumerGroupOffsets(specs(chunk))));
                next += chunk.size();
            }
            Call call = calls.poll();
            try {
                resolve(call.chunk(), call.result().all().get(60, TimeUnit.SECONDS), call.sent());
            } catch (ExecutionException | TimeoutException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static Map<String, ListConsumerGroupOffsetsSpec> specs(List<TrackedGroup> chunk) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        for (TrackedGroup g : chunk) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < g.partitions; p++) {
                tps.add(new TopicPartition(g.destinationTopic, p));
            }
            specs.put(g.name, new ListConsumerGroupOffsetsSpec().topicPartitions(tps));
        }
        return specs;
    }

    /** One chunk's read: its groups, when it was asked (a commit returned before then can show), the answer. */
    private record Call(List<TrackedGroup> chunk, long sent, ListConsumerGroupOffsetsResult result) {
    }

    /** What one chunk's answer shows: each group's destination offsets, and the commits they resolve. */
    private void resolve(List<TrackedGroup> chunk, Map<String, Map<TopicPartition, OffsetAndMetadata>> answer,
                     long sent) {
        long received = System.nanoTime();
        for (TrackedGroup g : chunk) {
            Map<TopicPartition, OffsetAndMetadata> offsets = answer.getOrDefault(g.name, Map.of());
            long[] src = new long[g.partitions];
            long[] dest = new long[g.partitions];
            Arrays.fill(src, -1);
            Arrays.fill(dest, -1);
            for (int p = 0; p < g.partitions; p++) {
                OffsetAndMetadata om = offsets.get(new TopicPartition(g.destinationTopic, p));
                if (om != null) {
                    dest[p] = om.offset();
                    src[p] = TrackedGroup.sourceOffsetOf(om.metadata());
                }
            }
            g.observe(src, dest, sent, received, best, (group, p, s, d) -> {
                if (!group.lagging) {
                    liveReplay.add(s - d);
                }
            }, latency -> {
                (initialPhase ? initialLatency : g.lagging ? laggingLatency : caughtUpLatency).add(latency / 1e6);
                if (!initialPhase && !g.lagging) {
                    steadyTrace.add(new long[] {received - latency, latency});
                }
            });
        }
    }

    /**
     * At the end: every commit still not visible becomes a censored sample, its age at {@code endNanos} (a lower
     * bound of its latency).
     */
    void censor(long endNanos) {
        for (TrackedGroup g : groups) {
            for (long since : g.outstandingSince()) {
                (g.lagging ? laggingCensored : caughtUpCensored).add(Math.max(0, endNanos - since) / 1e6);
            }
        }
    }

    /** From now until {@link #endInitialSync}, resolved commits are the initial sync's. */
    void startInitialSync() {
        initialPhase = true;
    }

    void endInitialSync() {
        initialPhase = false;
    }

    Samples initialLatency() {
        return initialLatency;
    }

    Samples caughtUpCensored() {
        return caughtUpCensored;
    }

    Samples laggingCensored() {
        return laggingCensored;
    }

    /** Commits not visible yet, over all groups. */
    long outstanding() {
        long n = 0;
        for (TrackedGroup g : groups) {
            n += g.outstandingCount();
        }
        return n;
    }

    /**
     * Writes the steady-state samples as TSV (seconds since {@code sinceNanos} when the commit returned, latency in
     * ms), in commit order: where in the window a latency tail sits.
     */
    void writeSteadyTrace(Path file, long sinceNanos) throws IOException {
        List<long[]> samples = new ArrayList<>(steadyTrace);
        samples.sort(Comparator.comparingLong(x -> x[0]));
        StringBuilder out = new StringBuilder("commit_s\tlatency_ms\n");
        for (long[] x : samples) {
            out.append(String.format(Locale.ROOT, "%.3f\t%.1f%n", (x[0] - sinceNanos) / 1e9, x[1] / 1e6));
        }
        Files.writeString(file, out);
    }

    /** Each steady-state commit of a caught-up group seen so far: {when it was made (nanoTime), its latency (ns)}. */
    List<long[]> steadySamples() {
        return new ArrayList<>(steadyTrace);
    }

    Samples caughtUpLatency() {
        return caughtUpLatency;
    }

    Samples laggingLatency() {
        return laggingLatency;
    }

    Samples cycleMillis() {
        return cycleMillis;
    }

    /** Source offset minus destination offset of every destination write seen for caught-up groups. */
    Samples liveReplay() {
        return liveReplay;
    }

    List<TrackedGroup> groups() {
        return groups;
    }

    void closeAdmin() {
        admin.close(Duration.ofSeconds(5));
    }

    Exception lastError() {
        return lastError;
    }

    /** Stops polling; {@link #pollAll()} still works until {@link #closeAdmin()}. */
    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
