package dev.sextant.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Throughput of one Sextant instance at saturation: {@code __consumer_offsets} is filled once ({@link #prefill()}:
 * {@code tpCommits} offset commits, {@code tpGroups} groups, each Admin call covering all {@code tpPartitions}
 * partitions of {@code bench-tp}, in rounds with new offsets), then {@link #run(int, boolean)} starts one Sextant
 * (per stream-thread count, one after the other, each with its own {@code application.id} so it reads every commit
 * from the start) and the benchmark samples its {@code sextant.commits.read} every 100 ms until it reaches the
 * total. The rate is taken between 10% and 90% of the total (JVM start-up and the tail excluded). It also counts the
 * Admin requests Sextant sent meanwhile (they should follow the groups, not the commits), and how long until the
 * destination holds every group's last commit.
 */
final class ThroughputScenario {

    static final String TOPIC = "bench-tp";
    /** the stream thread's metrics a run reports */
    private static final String STREAM_THREAD_FIGURES =
            "(punctuate|process|poll|commit)\\.(ratio|latency\\.avg|latency\\.max|rate)";

    /** The outcome. */
    static final class Outcome {
        /** Sextant's stream threads in this run. */
        int threads;
        String applicationId;
        int groups;
        int partitions;
        long commits;
        int rounds;
        double prefillSeconds;
        double commitsPerSec = Double.NaN;
        double overallCommitsPerSec = Double.NaN;
        double countedRequestsPerSec = Double.NaN;
        double wireRequestsPerSec = Double.NaN;
        double alterRequests = Double.NaN;
        double startupSeconds = Double.NaN;
        double readSeconds = Double.NaN;
        double drainSeconds = Double.NaN;
        boolean drained;
        double cpuSeconds = Double.NaN;
        double peakRssMb = Double.NaN;
        long reached;
        Path jfr;
        SextantChild.Heap heap = SextantChild.Heap.UNKNOWN;
        /** Whether Sextant still ran when the measurement ended (a JVM out of memory exits). */
        boolean alive = true;
        boolean outOfMemory;
        /** Why this run failed (Sextant exited or ran out of memory, or the harness failed); null: it ran. */
        String failed;
        /** {@link SyncScenario#BY_SYSTEM} or {@link SyncScenario#BY_HARNESS}; null when it did not fail. */
        String failedBy;
        final List<double[]> curve = new ArrayList<>(); // {seconds since launch, commits read, counted, wire}
        /** Kafka Streams' stream-thread metrics at the last snapshot while reading (ratios, latencies in ms). */
        final Map<String, Double> streamThread = new TreeMap<>();
    }

    private final Session session;
    private final BenchSettings cfg;
    private final Path dir;

    // the prefill, the same for every run
    private int groups;
    private int partitions;
    private int rounds;
    private long commits;
    private long[] lowest;
    private double prefillSeconds = Double.NaN;
    private int runs;

    ThroughputScenario(Session session) {
        this.session = session;
        this.cfg = session.settings;
        this.dir = session.workDir.resolve("throughput");
    }

    /** Fills {@code __consumer_offsets}, once: every {@link #run} reads these commits. */
    void prefill() throws Exception {
        Files.createDirectories(dir);
        groups = cfg.tpGroups();
        partitions = cfg.tpPartitions();
        rounds = (int) Math.max(1, (cfg.tpCommits() + (long) groups * partitions - 1) / ((long) groups * partitions));
        commits = (long) rounds * groups * partitions;

        // a mirrored topic with syncs on every partition, so every commit is translatable
        session.clusters.createTopic(session.clusters.source(), TOPIC, partitions);
        try (NumberedProducer producer = new NumberedProducer(session.sourceConfig(), TOPIC, partitions)) {
            producer.produce(200, 20_000);
        }
        session.clusters.awaitMirrored(TOPIC, Duration.ofSeconds(120));
        for (int p = 0; p < partitions; p++) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (session.syncs.newestUpstream(TOPIC, p) < 199 && System.nanoTime() < deadline) {
                Bench.sleep(100);
            }
        }

        // MirrorMaker 2 may coalesce a partition's first syncs, and an offset below a partition's oldest sync has no
        // translation (for MirrorMaker 2 either): commit only offsets from there to 199, so every group can finish
        lowest = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            lowest[p] = Math.max(0, Math.min(198, session.syncs.oldestUpstream(TOPIC, p)));
        }
        long t0 = System.nanoTime();
        Committer committer = new Committer(session.committers, 200);
        for (int r = 0; r < rounds; r++) {
            for (int g = 0; g < groups; g++) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int p = 0; p < partitions; p++) {
                    long offset = offsetOf(r, g, p, lowest[p]);
                    offsets.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(offset,
                            TrackedGroup.metadataFor(offset)));
                }
                committer.commit(groupName(g), offsets, nanos -> { });
            }
        }
        committer.drain();
        if (committer.failed() > 0) {
            throw new IllegalStateException(committer.failed() + " prefill commits failed", committer.firstFailure());
        }
        prefillSeconds = Bench.seconds(System.nanoTime() - t0);
        Bench.log("throughput: __consumer_offsets prefilled with %,d commits (%d groups x %d partitions x %d "
                + "rounds) in %.1f s", commits, groups, partitions, rounds, prefillSeconds);
    }

    /**
     * One Sextant with {@code threads} stream threads reads the prefill from the start (its own
     * {@code application.id}); {@code profile}: under JFR. From the second run on, the destination groups are
     * deleted first: a new instance never overwrites offsets another instance wrote (their marks name another
     * application.id), and each run must write every group as the first did.
     */
    Outcome run(int threads, boolean profile) throws Exception {
        if (Double.isNaN(prefillSeconds)) {
            throw new IllegalStateException("prefill() first");
        }
        if (runs++ > 0) {
            clearDestination();
        }
        Outcome out = outcome(threads);
        Path runDir = dir.resolve("threads-" + threads);
        Map<String, String> config = sextantConfig(out.applicationId, runDir, threads);
        List<String> jvm = new ArrayList<>(cfg.throughputJvmOptions());
        if (profile) {
            Files.createDirectories(runDir);
            out.jfr = runDir.resolve("sextant-throughput.jfr").toAbsolutePath();
            jvm.add("-XX:StartFlightRecording=filename=" + out.jfr + ",settings=profile,dumponexit=true");
        }
        String tag = "throughput (" + threads + " thread" + (threads == 1 ? "" : "s") + ")";
        long start = System.nanoTime();
        try (SextantChild sextant = SextantChild.start(BenchSettings.SEXTANT, "bench-tp-", config, runDir, jvm)) {
            sample(sextant, out, start, tag);
            double read = out.curve.isEmpty() ? 0 : out.curve.get(out.curve.size() - 1)[1];
            double firstRead = firstRead(out.curve);
            double tAll = Bench.seconds(System.nanoTime() - start);
            out.reached = (long) read;
            out.startupSeconds = firstRead;
            out.readSeconds = tAll - firstRead;
            steadyRates(out, read);
            out.overallCommitsPerSec = read / (tAll - firstRead);
            Bench.log("%s: Sextant read %,d of %,d commits in %.1f s; %,.0f commits/s between 10%% and 90%% "
                    + "(started reading %.1f s after launch)", tag, out.reached, out.commits, tAll, out.commitsPerSec,
                    firstRead);
            out.drained = out.reached >= out.commits
                    && awaitDestination(out, rounds - 1, groups, partitions, lowest, start);
            finish(sextant, out, tag);
        }
        return out;
    }

    /**
     * A run's outcome before it runs: its shape (the prefill's figures: the configured ones when the prefill did
     * not finish), no measurement yet.
     */
    Outcome outcome(int threads) {
        Outcome out = new Outcome();
        out.threads = threads;
        out.groups = groups > 0 ? groups : cfg.tpGroups();
        out.partitions = partitions > 0 ? partitions : cfg.tpPartitions();
        out.rounds = rounds;
        out.commits = commits > 0 ? commits : cfg.tpCommits();
        out.prefillSeconds = prefillSeconds;
        out.applicationId = "sextant-bench-throughput-" + threads + "t";
        return out;
    }

    private Map<String, String> sextantConfig(String applicationId, Path runDir, int threads) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", session.sourceBootstrap());
        config.put("destination.bootstrap.servers", session.destinationBootstrap());
        config.put("application.id", applicationId);
        config.put("state.dir", runDir.resolve("state").toAbsolutePath().toString());
        config.put("groups.include", "bench-tp-.*");
        config.put("query.listen", "127.0.0.1:0");
        config.put("streams.num.stream.threads", Integer.toString(threads));
        config.putAll(cfg.sextantConfig());
        return config;
    }

    /**
     * Samples the instance's metrics into {@code out.curve} every 100 ms, and its stream thread's figures while it
     * runs, until it has read every commit, the time ran out or it is gone.
     */
    private void sample(SextantChild sextant, Outcome out, long start, String tag) {
        long deadline = start + cfg.tpTimeoutSeconds() * 1_000_000_000L;
        double read = 0;
        long lastProgress = System.nanoTime();
        while (read < out.commits && System.nanoTime() < deadline && sextant.isAlive()) {
            Bench.sleep(100);
            JsonNode m = sextant.metrics();
            if (m == null) {
                continue;
            }
            double t = Bench.seconds(System.nanoTime() - start);
            read = m.path("commitsRead").asDouble();
            out.curve.add(new double[] {t, read, m.path("adminRequestsTotal").asDouble(),
                    m.path("wireAdminRequests").asDouble()});
            if ("RUNNING".equals(m.path("state").asText())) {
                m.path("streamThread").fields().forEachRemaining(e -> {
                    if (e.getKey().matches(STREAM_THREAD_FIGURES)) {
                        out.streamThread.put(e.getKey(), Report.round(e.getValue().asDouble(), 3));
                    }
                });
            }
            if (System.nanoTime() - lastProgress > 15_000_000_000L) {
                Bench.log("%s: %,.0f of %,d commits read", tag, read, out.commits);
                lastProgress = System.nanoTime();
            }
        }
    }

    /** Seconds from launch to the first sample with a commit read; NaN when none was read. */
    private static double firstRead(List<double[]> curve) {
        for (double[] point : curve) {
            if (point[1] > 0) {
                return point[0];
            }
        }
        return Double.NaN;
    }

    /** The steady part: from 10% to 90% of what was read (all of it, unless the time ran out). */
    private static void steadyRates(Outcome out, double read) {
        double[] a = null;
        double[] b = null;
        for (double[] point : out.curve) {
            if (a == null && point[1] >= 0.1 * read) {
                a = point;
            }
            if (b == null && point[1] >= 0.9 * read) {
                b = point;
            }
        }
        if (a != null && b != null && b[0] > a[0]) {
            out.commitsPerSec = (b[1] - a[1]) / (b[0] - a[0]);
            out.countedRequestsPerSec = (b[2] - a[2]) / (b[0] - a[0]);
            out.wireRequestsPerSec = (b[3] - a[3]) / (b[0] - a[0]);
        }
    }

    /** What the instance shows at the end of the run: its write requests, heap, CPU, and whether it still runs. */
    private static void finish(SextantChild sextant, Outcome out, String tag) {
        JsonNode m = sextant.metrics();
        if (m != null) {
            out.alterRequests = m.path("adminRequests").path("alterConsumerGroupOffsets").asDouble();
        }
        out.heap = sextant.heap();
        out.alive = sextant.isAlive();
        out.outOfMemory = sextant.outOfMemory();
        if (!out.alive) {
            Bench.log("%s: Sextant (pid %d) was no longer running at the end%s; see %s", tag, sextant.pid(),
                    out.outOfMemory ? ", out of memory" : "", sextant.logFile());
            out.failed = out.outOfMemory ? "Sextant ran out of memory and exited" : "Sextant exited before the end";
            out.failedBy = SyncScenario.BY_SYSTEM;
        }
        ProcStats.Sample s = ProcStats.sample(sextant.pid());
        if (s.cpuSeconds() >= 0) { // a process that is gone has no /proc entry left to read
            out.cpuSeconds = s.cpuSeconds();
            out.peakRssMb = s.peakRssMb();
        }
    }

    /** Deletes every prefill group on the destination (they have no members there), so the next run starts empty. */
    private void clearDestination() throws Exception {
        // a few groups per call: the coordinator writes a call's tombstones (one per group and partition) to each
        // __consumer_offsets partition as one batch, and 1,000 groups x 100 partitions exceed its 1 MB limit
        int perCall = Math.max(1, 2_000 / partitions);
        int missing = 0;
        for (int from = 0; from < groups; from += perCall) {
            List<String> names = new ArrayList<>();
            for (int g = from; g < Math.min(groups, from + perCall); g++) {
                names.add(groupName(g));
            }
            for (Map.Entry<String, KafkaFuture<Void>> e : session.destinationAdmin
                    .deleteConsumerGroups(names).deletedGroups().entrySet()) {
                try {
                    e.getValue().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof GroupIdNotFoundException)) {
                        throw ex;
                    }
                    missing++; // never written (the previous run did not get that far): nothing to delete
                }
            }
        }
        Bench.log("throughput: %,d destination groups deleted before the next run (%d did not exist)",
                groups - missing, missing);
    }

    static String groupName(int g) {
        return String.format("bench-tp-%05d", g);
    }

    /** Offset of round r: changes every round, above {@code lowest} and within the 200 records of a partition. */
    static long offsetOf(int round, int group, int partition, long lowest) {
        return lowest + 1 + (round * 7L + group + partition) % (199 - lowest);
    }

    /** Waits until the destination holds the last round's offsets of every group. */
    private boolean awaitDestination(Outcome out, int lastRound, int groups, int partitions, long[] lowest,
                                     long start) throws Exception {
        // as long as reading may take: a run stays within its announced duration
        long deadline = System.nanoTime() + cfg.tpTimeoutSeconds() * 1_000_000_000L;
        List<String> pending = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            pending.add(groupName(g));
        }
        while (!pending.isEmpty() && System.nanoTime() < deadline) {
            Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
            for (String group : pending.subList(0, Math.min(1_000, pending.size()))) {
                specs.put(group, new ListConsumerGroupOffsetsSpec());
            }
            Map<String, Map<TopicPartition, OffsetAndMetadata>> answer = session.destinationAdmin
                    .listConsumerGroupOffsets(specs).all().get(60, TimeUnit.SECONDS);
            for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : answer.entrySet()) {
                int g = Integer.parseInt(e.getKey().substring("bench-tp-".length()));
                boolean done = true;
                for (int p = 0; p < partitions && done; p++) {
                    OffsetAndMetadata om = e.getValue().get(new TopicPartition("source." + TOPIC, p));
                    long last = offsetOf(lastRound, g, p, lowest[p]);
                    // the metadata names the last commit, or the offset already was its translation (Sextant does
                    // not rewrite a partition whose translation did not change, and keeps the older metadata)
                    done = om != null && (TrackedGroup.sourceOffsetOf(om.metadata()) == last
                            || om.offset() == session.syncs.bestTranslation(TOPIC, p, last));
                }
                if (done) {
                    pending.remove(e.getKey());
                }
            }
            if (!pending.isEmpty()) {
                Bench.sleep(250);
            }
        }
        out.drainSeconds = Bench.seconds(System.nanoTime() - start);
        return pending.isEmpty();
    }
}
