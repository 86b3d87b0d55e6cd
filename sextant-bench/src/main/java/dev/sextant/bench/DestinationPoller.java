package dev.sextant.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Watches one syncer's groups on the destination: every cycle, one batched {@code listConsumerGroupOffsets} for
 * the groups that have a commit the destination does not show yet (chunks of {@value #CHUNK} groups, sent
 * together), then resolves what became visible. A cycle starts at most every {@code minPeriodMillis}, and at most
 * every 8 cycle durations up to 5 s (so the poller stays light when thousands of groups are outstanding); the
 * resolution of a latency sample is one cycle (it is stamped with the time the answer arrived, an upper bound).
 * Each poller has its own Admin client: one Admin client has one request in flight, so shared pollers would wait
 * for each other.
 */
final class DestinationPoller implements AutoCloseable {

    static final int CHUNK = 1_000;

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
                    poll(due, sent);
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
        poll(groups, System.nanoTime());
    }

    private void poll(List<TrackedGroup> due, long sent) throws Exception {
        List<Map.Entry<List<TrackedGroup>, ListConsumerGroupOffsetsResult>> calls = new ArrayList<>();
        for (int i = 0; i < due.size(); i += CHUNK) {
            List<TrackedGroup> chunk = due.subList(i, Math.min(due.size(), i + CHUNK));
            Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
            for (TrackedGroup g : chunk) {
                List<TopicPartition> tps = new ArrayList<>();
                for (int p = 0; p < g.partitions; p++) {
                    tps.add(new TopicPartition(g.destinationTopic, p));
                }
                specs.put(g.name, new ListConsumerGroupOffsetsSpec().topicPartitions(tps));
            }
            calls.add(Map.entry(chunk, admin.listConsumerGroupOffsets(specs)));
        }
        for (Map.Entry<List<TrackedGroup>, ListConsumerGroupOffsetsResult> call : calls) {
            Map<String, Map<TopicPartition, OffsetAndMetadata>> answer =
                    call.getValue().all().get(60, TimeUnit.SECONDS);
            long received = System.nanoTime();
            for (TrackedGroup g : call.getKey()) {
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
    }

    /**
     * At the end: every commit still not visible becomes a censored sample, its age at {@code endNanos} (a lower
     * bound of its latency).
     */
    void censor(long endNanos) {
        for (TrackedGroup g : groups) {
            for (long since : g.outstandingSince()) {
                (g.lagging ? laggingCensored : caughtUpCensored).add((endNanos - since) / 1e6);
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
