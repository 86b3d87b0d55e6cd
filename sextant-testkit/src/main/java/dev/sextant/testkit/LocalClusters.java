package dev.sextant.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two single-node Kafka clusters, {@code source} and {@code destination}, and optionally MirrorMaker 2 mirroring
 * source to destination, each in its own child JVM; for tests, the demo and the benchmark.
 *
 * <p>Invariants:
 * <ul>
 *   <li>After {@link #start} returns, both brokers answer and MirrorMaker (if requested) has started; if anything
 *       fails, whatever was started is stopped before the exception propagates.</li>
 *   <li>{@link #close()} stops MirrorMaker first, then both brokers (in parallel), then deletes the root
 *       directory. It is idempotent, and runs from a JVM shutdown hook if the owner never calls it.</li>
 *   <li>If this JVM is SIGKILLed, the children exit by themselves ({@link ParentWatchdogMain}); the next
 *       {@code start} deletes the leftover directories.</li>
 *   <li>Started {@link Builder#secured() secured}, the source takes SASL_SSL/SCRAM-SHA-512 and the destination SSL
 *       with client certificates, both deny what no ACL allows, and every helper here (and MirrorMaker) acts as the
 *       super user {@value LocalKafkaBroker#ADMIN_USER}; other principals get their config from
 *       {@link LocalKafkaBroker#clientProperties(String)}.</li>
 * </ul>
 */
public final class LocalClusters implements AutoCloseable {

    /** Prefix of the temp directories made here: {@code <tmp>/sextant-local-<pid>-<random>}. */
    static final String TEMP_PREFIX = "sextant-local";

    private static final Logger LOG = LoggerFactory.getLogger(LocalClusters.class);

    private final Path root;
    private final LocalKafkaBroker source;
    private final LocalKafkaBroker destination;
    private final LocalMirrorMaker mirrorMaker; // null when started without MirrorMaker
    private final Duration startupTime;
    private boolean closed;

    private LocalClusters(Path root, LocalKafkaBroker source, LocalKafkaBroker destination,
                          LocalMirrorMaker mirrorMaker, Duration startupTime) {
        this.root = root;
        this.source = source;
        this.destination = destination;
        this.mirrorMaker = mirrorMaker;
        this.startupTime = startupTime;
    }

    /** Source, destination and MirrorMaker with default options. */
    public static LocalClusters start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What to start. Defaults: both brokers with default options and MirrorMaker with default options. */
    public static final class Builder {
        private LocalMirrorMaker.Options mirrorMakerOptions = LocalMirrorMaker.Options.defaults();
        private boolean withMirrorMaker = true;
        private int offsetsTopicPartitions = 3;
        private Duration readyTimeout = Duration.ofSeconds(90);
        private KafkaDistribution brokerDistribution;
        private KafkaDistribution sourceBrokerDistribution;
        private int sourcePort;
        private int destinationPort;
        private boolean secured;
        private final Map<String, String> scramUsers = new LinkedHashMap<>();
        private String brokerHeap = "256m";

        private Builder() {
        }

        /** Each broker's maximum heap ({@link LocalKafkaBroker.Builder#heap}); default 256m. */
        public Builder brokerHeap(String heap) {
            this.brokerHeap = Objects.requireNonNull(heap);
            return this;
        }

        /**
         * Secures both clusters, one each way a client may authenticate: the source for SASL_SSL with SCRAM-SHA-512
         * ({@link LocalKafkaBroker.Builder#saslScram()}), the destination for SSL with client certificates
         * ({@link LocalKafkaBroker.Builder#mutualTls()}). Both authorize with ACLs and deny what none allows.
         */
        public Builder secured() {
            this.secured = true;
            return this;
        }

        /**
         * A SCRAM-SHA-512 user on the (secured) source, created at format time; on the destination any principal
         * exists as soon as its certificate is asked for.
         */
        public Builder scramUser(String name, String password) {
            BrokerSecurity.checkScramUser(Objects.requireNonNull(name), Objects.requireNonNull(password));
            scramUsers.put(name, password);
            return this;
        }

        /** Fixed client ports for the two brokers (0: a free port, the default). */
        public Builder ports(int sourcePort, int destinationPort) {
            this.sourcePort = sourcePort;
            this.destinationPort = destinationPort;
            return this;
        }

        /** Start MirrorMaker with these options (default {@link LocalMirrorMaker.Options#defaults()}). */
        public Builder mirrorMaker(LocalMirrorMaker.Options options) {
            this.mirrorMakerOptions = Objects.requireNonNull(options);
            this.withMirrorMaker = true;
            return this;
        }

        /** Start only the two brokers. */
        public Builder withoutMirrorMaker() {
            this.withMirrorMaker = false;
            return this;
        }

        /** Partitions of {@code __consumer_offsets} on both clusters (default 3). */
        public Builder offsetsTopicPartitions(int partitions) {
            this.offsetsTopicPartitions = partitions;
            return this;
        }

        /** Per-broker startup deadline, including format and (cold) jar resolution time; default 90 s. */
        public Builder readyTimeout(Duration readyTimeout) {
            this.readyTimeout = Objects.requireNonNull(readyTimeout);
            return this;
        }

        /** Broker jars; default {@link KafkaDistribution#broker()}. */
        public Builder brokerDistribution(KafkaDistribution distribution) {
            this.brokerDistribution = Objects.requireNonNull(distribution);
            return this;
        }

        /**
         * The source broker's jars when they differ from the destination's (a pair upgraded one side at a time);
         * default the same as {@link #brokerDistribution}.
         */
        public Builder sourceBrokerDistribution(KafkaDistribution distribution) {
            this.sourceBrokerDistribution = Objects.requireNonNull(distribution);
            return this;
        }

        public LocalClusters start() {
            if (!scramUsers.isEmpty() && !secured) {
                throw new IllegalStateException("SCRAM users " + scramUsers.keySet() + " need secured()");
            }
            return LocalClusters.start(this);
        }
    }

    private static LocalClusters start(Builder b) {
        long started = System.nanoTime();
        LocalFiles.deleteStaleTempDirs(TEMP_PREFIX);
        Path root = LocalFiles.createOwnedTempDir(TEMP_PREFIX);
        KafkaDistribution brokers = b.brokerDistribution != null ? b.brokerDistribution : KafkaDistribution.broker();
        KafkaDistribution sourceBrokers = b.sourceBrokerDistribution != null ? b.sourceBrokerDistribution : brokers;
        KafkaDistribution mirror = b.mirrorMakerOptions.distribution() != null
                ? b.mirrorMakerOptions.distribution() : KafkaDistribution.mirrorMaker();
        // dedicated threads: the common pool has a single thread on a 2-core machine, which would serialise us
        ExecutorService pool = Executors.newFixedThreadPool(3, runnable -> {
            Thread t = new Thread(runnable, "sextant-local-start");
            t.setDaemon(true);
            return t;
        });
        CompletableFuture<LocalKafkaBroker> sourceFuture = null;
        CompletableFuture<LocalKafkaBroker> destinationFuture = null;
        LocalMirrorMaker mm = null;
        try {
            // resolve once up front so the two broker threads do not both wait on the same resolution
            brokers.classpath();
            sourceBrokers.classpath();
            CompletableFuture<List<Path>> mirrorJars = b.withMirrorMaker
                    ? CompletableFuture.supplyAsync(mirror::classpath, pool) // overlaps with the broker starts
                    : CompletableFuture.completedFuture(List.of());
            sourceFuture = CompletableFuture.supplyAsync(
                    brokerStarter(LocalMirrorMaker.SOURCE_ALIAS, b.sourcePort, sourceBrokers, root, b, true), pool);
            destinationFuture = CompletableFuture.supplyAsync(
                    brokerStarter(LocalMirrorMaker.DESTINATION_ALIAS, b.destinationPort, brokers, root, b, false),
                    pool);
            LocalKafkaBroker src = join(sourceFuture);
            LocalKafkaBroker dst = join(destinationFuture);
            if (b.withMirrorMaker) {
                join(mirrorJars);
                // the admin's config on secured clusters: MirrorMaker creates topics and reads and writes everything
                mm = LocalMirrorMaker.start(src.clientProperties(), dst.clientProperties(), b.mirrorMakerOptions,
                        root);
            }
            LocalClusters clusters = new LocalClusters(root, src, dst, mm,
                    Duration.ofNanos(System.nanoTime() - started));
            ShutdownRegistry.register(clusters);
            LOG.info("Local clusters ready in {} ms", clusters.startupTime.toMillis());
            return clusters;
        } catch (RuntimeException e) {
            if (mm != null) {
                mm.close();
            }
            closeWhenStarted(sourceFuture);
            closeWhenStarted(destinationFuture);
            LocalFiles.deleteRecursively(root);
            throw e;
        } finally {
            pool.shutdown();
        }
    }

    private static Supplier<LocalKafkaBroker> brokerStarter(String name, int port, KafkaDistribution dist, Path root,
                                                            Builder b, boolean isSource) {
        return () -> {
            LocalKafkaBroker.Builder broker = LocalKafkaBroker.builder(name)
                    .port(port)
                    .distribution(dist)
                    .parentDirectory(root)
                    .offsetsTopicPartitions(b.offsetsTopicPartitions)
                    .readyTimeout(b.readyTimeout)
                    .heap(b.brokerHeap);
            if (b.secured && isSource) {
                broker.saslScram();
                b.scramUsers.forEach(broker::scramUser);
            } else if (b.secured) {
                broker.mutualTls();
            }
            return broker.start();
        };
    }

    /** Waits for a start that may still be running (so a failed sibling never leaks a broker), then closes it. */
    private static void closeWhenStarted(CompletableFuture<LocalKafkaBroker> future) {
        if (future == null) {
            return;
        }
        try {
            future.join().close();
        } catch (RuntimeException alreadyReported) {
            // this start failed too; its own cleanup already ran
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    public LocalKafkaBroker source() {
        return source;
    }

    public LocalKafkaBroker destination() {
        return destination;
    }

    /** MirrorMaker, unless started {@link Builder#withoutMirrorMaker() without}. */
    public Optional<LocalMirrorMaker> mirrorMaker() {
        return Optional.ofNullable(mirrorMaker);
    }

    /** Wall time from {@code start} to ready (resolution, format, brokers and MirrorMaker). */
    public Duration startupTime() {
        return startupTime;
    }

    /** The temp directory holding everything (deleted on close). */
    public Path directory() {
        return root;
    }

    /**
     * Creates a topic with replication factor 1 and waits until the broker confirmed it. A slow broker can create it
     * and time out the answer, and the Admin client's retry then finds it: a topic that exists with the requested
     * partition count counts as created.
     */
    public void createTopic(LocalKafkaBroker cluster, String name, int partitions) {
        ClusterTopics.create(cluster, name, partitions);
    }

    /**
     * Latest offsets (high watermarks) of every partition of {@code topic}, by partition number.
     *
     * @throws UnknownTopicOrPartitionException if the topic does not exist
     */
    public Map<Integer, Long> endOffsets(LocalKafkaBroker cluster, String topic) {
        return ClusterTopics.endOffsets(cluster, topic);
    }

    /**
     * Waits until the destination's {@code source.<topic>} has exactly {@code expectedEndOffsets} (partition to end
     * offset), i.e. MirrorMaker has copied every record produced so far.
     *
     * @throws IllegalStateException with the last seen offsets if they did not match in time
     */
    public void awaitMirrored(String topic, Map<Integer, Long> expectedEndOffsets, Duration timeout) {
        ClusterTopics.awaitMirrored(destination, topic, expectedEndOffsets, timeout);
    }

    /** Waits until the destination's {@code source.<topic>} has the source topic's current end offsets. */
    public void awaitMirrored(String topic, Duration timeout) {
        awaitMirrored(topic, endOffsets(source, topic), timeout);
    }

    /**
     * Produces {@code perPartition} numbered records ({@link Clients#produceNumbered}) to every partition of a new
     * source topic so that every offset translates: ten first, until MirrorMaker 2 wrote a sync of each partition,
     * then the rest, and waits until all are mirrored. Produced at once, MirrorMaker 2 coalesces the first syncs under
     * load (it keeps at most ten outstanding), and an offset below a partition's oldest sync has no translation.
     */
    public void produceMirroredFromFirstSyncs(String topic, int partitions, int perPartition, Duration timeout) {
        int first = Math.min(10, perPartition);
        Clients.produceNumbered(source, topic, partitions, first);
        awaitMirrored(topic, timeout);
        for (int partition = 0; partition < partitions; partition++) {
            int p = partition;
            Await.until(timeout, "a MirrorMaker 2 sync of " + topic + "-" + p, () ->
                    !Clients.mirrorMakerSyncs(source, topic, p).isEmpty());
        }
        Clients.produceNumberedFrom(source, topic, partitions, first, perPartition - first);
        awaitMirrored(topic, timeout);
    }

    /** An Admin client for one of the clusters; the caller closes it. */
    public Admin admin(LocalKafkaBroker cluster) {
        return ClusterTopics.admin(cluster);
    }

    /** A few human-readable lines: what runs where, with pids and log files. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append("Local Kafka clusters (").append(root).append(")\n");
        for (LocalKafkaBroker broker : List.of(source, destination)) {
            out.append(String.format("  %-12s Kafka %-6s %-16s %-9s pid %-7d log %s%n", broker.name(),
                    broker.version(), broker.bootstrapServers(), broker.securityProtocol(), broker.pid(),
                    broker.logFile()));
        }
        if (mirrorMaker != null) {
            LocalMirrorMaker.Options o = mirrorMaker.options();
            String version = o.distribution() != null ? o.distribution().version()
                    : KafkaDistribution.mirrorMaker().version();
            out.append(String.format("  %-12s MM2   %-6s %s->%s topics '%s'  pid %-7d log %s%n", "mirror-maker",
                    version, LocalMirrorMaker.SOURCE_ALIAS, LocalMirrorMaker.DESTINATION_ALIAS, o.topics(),
                    mirrorMaker.pid(), mirrorMaker.logFile()));
        } else {
            out.append("  (no MirrorMaker)\n");
        }
        return out.toString().stripTrailing();
    }

    /** Stops MirrorMaker, then both brokers in parallel, then deletes the directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShutdownRegistry.unregister(this);
        long started = System.nanoTime();
        List<RuntimeException> failures = new ArrayList<>();
        if (mirrorMaker != null) {
            try {
                mirrorMaker.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        // plain threads, not the common pool (one thread on 2 cores): each broker needs ~2 s to shut down
        Thread stopSource = new Thread(source::close, "sextant-local-stop-source");
        stopSource.start();
        try {
            destination.close();
        } catch (RuntimeException e) {
            failures.add(e);
        }
        try {
            stopSource.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            LocalFiles.deleteRecursively(root);
        } catch (RuntimeException e) {
            failures.add(e);
        }
        LOG.info("Local clusters stopped in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    @Override
    public String toString() {
        return "local clusters in " + root;
    }
}
