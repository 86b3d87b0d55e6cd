package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MirrorMaker 2 in dedicated mode ({@code org.apache.kafka.connect.mirror.MirrorMaker}) in its own child JVM,
 * mirroring cluster alias {@value #SOURCE_ALIAS} to {@value #DESTINATION_ALIAS} only.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Only the {@code source->destination} flow runs ({@code --clusters destination}), so MirrorMaker writes
 *       nothing to the source except its offset-syncs topic.</li>
 *   <li>By default it emits no checkpoints and syncs no group offsets, so it never writes the consumer groups
 *       Sextant syncs on the destination; both can be switched on through {@link Options}.</li>
 *   <li>Mirrored topics are named {@code source.<topic>} (MirrorMaker's DefaultReplicationPolicy).</li>
 *   <li>It must be closed before its brokers (otherwise its shutdown hangs ~25 s); {@link LocalClusters} and the
 *       shutdown hook do that.</li>
 *   <li>Against secured clusters it connects with the client config it is given for each cluster (in
 *       {@link LocalClusters}: the admin's, a super user), and every client it makes of a cluster (producer,
 *       consumer, admin, the Connect worker's own) uses that config.</li>
 * </ul>
 */
public final class LocalMirrorMaker implements AutoCloseable {

    public static final String SOURCE_ALIAS = "source";
    public static final String DESTINATION_ALIAS = "destination";

    static final List<String> JVM_OPTIONS = List.of(
            "-Xms64m", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true");

    private static final Logger LOG = LoggerFactory.getLogger(LocalMirrorMaker.class);
    private static final String NAME = "mirror-maker";

    private final Options options;
    private final Path directory;
    private final boolean ownsParentDirectory;
    private final String sourceBootstrap;
    private final String destinationBootstrap;
    private final ChildJvm process;
    private boolean closed;

    private LocalMirrorMaker(Options options, Path directory, boolean ownsParentDirectory, String sourceBootstrap,
                             String destinationBootstrap, ChildJvm process) {
        this.options = options;
        this.directory = directory;
        this.ownsParentDirectory = ownsParentDirectory;
        this.sourceBootstrap = sourceBootstrap;
        this.destinationBootstrap = destinationBootstrap;
        this.process = process;
    }

    /** What MirrorMaker mirrors and how. Immutable. */
    public static final class Options {
        private final String topics;
        private final String groups;
        private final int offsetLagMax;
        private final boolean syncGroupOffsetsEnabled;
        private final int syncGroupOffsetsIntervalSeconds;
        private final boolean emitCheckpointsEnabled;
        private final int emitCheckpointsIntervalSeconds;
        private final int refreshIntervalSeconds;
        private final Duration readyTimeout;
        private final KafkaDistribution distribution;
        private final Map<String, String> extraProperties;
        private final List<String> jvmOptions;
        private final List<Path> extraClasspath;
        private final boolean reverse;

        /** A builder starting from the defaults; see {@link Builder}. */
        public static Builder builder() {
            return new Builder();
        }

        /** All defaults: mirror every topic, no checkpoints, no group-offset sync. */
        public static Options defaults() {
            return builder().build();
        }

        private Options(Builder b) {
            this.topics = b.topics;
            this.groups = b.groups;
            this.offsetLagMax = b.offsetLagMax;
            this.syncGroupOffsetsEnabled = b.syncGroupOffsetsEnabled;
            this.syncGroupOffsetsIntervalSeconds = b.syncGroupOffsetsIntervalSeconds;
            this.emitCheckpointsEnabled = b.emitCheckpointsEnabled;
            this.emitCheckpointsIntervalSeconds = b.emitCheckpointsIntervalSeconds;
            this.refreshIntervalSeconds = b.refreshIntervalSeconds;
            this.readyTimeout = b.readyTimeout;
            this.distribution = b.distribution;
            this.extraProperties = Map.copyOf(b.extraProperties);
            this.jvmOptions = b.jvmOptions;
            this.extraClasspath = List.copyOf(b.extraClasspath);
            this.reverse = b.reverse;
        }

        /**
         * True for the flow the other way: {@value #DESTINATION_ALIAS} to {@value #SOURCE_ALIAS}, the cluster given as
         * the destination mirrored to the one given as the source ({@code orders} there becomes
         * {@code destination.orders}); its offset syncs go to {@code mm2-offset-syncs.source.internal} on the
         * destination.
         */
        public boolean reverse() {
            return reverse;
        }

        public String topics() {
            return topics;
        }

        public String groups() {
            return groups;
        }

        public int offsetLagMax() {
            return offsetLagMax;
        }

        public boolean syncGroupOffsetsEnabled() {
            return syncGroupOffsetsEnabled;
        }

        public int syncGroupOffsetsIntervalSeconds() {
            return syncGroupOffsetsIntervalSeconds;
        }

        public boolean emitCheckpointsEnabled() {
            return emitCheckpointsEnabled;
        }

        public int emitCheckpointsIntervalSeconds() {
            return emitCheckpointsIntervalSeconds;
        }

        public int refreshIntervalSeconds() {
            return refreshIntervalSeconds;
        }

        public Duration readyTimeout() {
            return readyTimeout;
        }

        /** The distribution to run; {@code null} means {@link KafkaDistribution#mirrorMaker()}. */
        public KafkaDistribution distribution() {
            return distribution;
        }

        public Map<String, String> extraProperties() {
            return extraProperties;
        }

        /** The child JVM's options; {@code null} means the small-heap defaults ({@code JVM_OPTIONS}). */
        public List<String> jvmOptions() {
            return jvmOptions;
        }

        /** Classpath entries after the distribution's jars (e.g. a directory with a custom policy class). */
        public List<Path> extraClasspath() {
            return extraClasspath;
        }

        /** Builds {@link Options}; the defaults suit tests and the demo. */
        public static final class Builder {
            private String topics = ".*";
            private String groups = ".*";
            private int offsetLagMax = 100;
            private boolean syncGroupOffsetsEnabled;
            private int syncGroupOffsetsIntervalSeconds = 1;
            private boolean emitCheckpointsEnabled;
            private int emitCheckpointsIntervalSeconds = 1;
            private int refreshIntervalSeconds = 5;
            private Duration readyTimeout = Duration.ofSeconds(60);
            private KafkaDistribution distribution;
            private final Map<String, String> extraProperties = new LinkedHashMap<>();
            private List<String> jvmOptions;
            private final List<Path> extraClasspath = new ArrayList<>();
            private boolean reverse;

            private Builder() {
            }

            /** The flow the other way, destination to source: see {@link Options#reverse()}. */
            public Builder reverse(boolean reverse) {
                this.reverse = reverse;
                return this;
            }

            /**
             * Regex (or comma-separated list) of source topics to mirror; default {@code .*}. MirrorMaker's default
             * {@code topics.exclude} still skips internal topics ({@code __.*}, {@code .*[-.]internal},
             * {@code .*\.replica}).
             */
            public Builder topics(String topics) {
                this.topics = Objects.requireNonNull(topics);
                return this;
            }

            /** Regex of consumer groups to checkpoint/sync when those are enabled; default {@code .*}. */
            public Builder groups(String groups) {
                this.groups = Objects.requireNonNull(groups);
                return this;
            }

            /** Records between two offset-sync emissions per partition; default 100 (MirrorMaker's own default). */
            public Builder offsetLagMax(int offsetLagMax) {
                this.offsetLagMax = nonNegative(offsetLagMax, "offsetLagMax");
                return this;
            }

            /** Whether MirrorMaker writes translated group offsets to the destination; default false. */
            public Builder syncGroupOffsetsEnabled(boolean enabled) {
                this.syncGroupOffsetsEnabled = enabled;
                return this;
            }

            public Builder syncGroupOffsetsIntervalSeconds(int seconds) {
                this.syncGroupOffsetsIntervalSeconds = positive(seconds, "syncGroupOffsetsIntervalSeconds");
                return this;
            }

            /** Whether MirrorMaker writes checkpoints ({@code source.checkpoints.internal}); default false. */
            public Builder emitCheckpointsEnabled(boolean enabled) {
                this.emitCheckpointsEnabled = enabled;
                return this;
            }

            public Builder emitCheckpointsIntervalSeconds(int seconds) {
                this.emitCheckpointsIntervalSeconds = positive(seconds, "emitCheckpointsIntervalSeconds");
                return this;
            }

            /** How often new topics and groups are noticed; default 5 s (MirrorMaker's default is 10 min). */
            public Builder refreshIntervalSeconds(int seconds) {
                this.refreshIntervalSeconds = positive(seconds, "refreshIntervalSeconds");
                return this;
            }

            /** How long to wait for "Kafka MirrorMaker started"; default 60 s. */
            public Builder readyTimeout(Duration readyTimeout) {
                this.readyTimeout = Objects.requireNonNull(readyTimeout);
                return this;
            }

            /** The jars to run; default {@link KafkaDistribution#mirrorMaker()}. */
            public Builder distribution(KafkaDistribution distribution) {
                this.distribution = Objects.requireNonNull(distribution);
                return this;
            }

            /** Sets or replaces one {@code mm2.properties} entry (applied last). */
            public Builder property(String key, String value) {
                extraProperties.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
                return this;
            }

            /**
             * Replaces the child JVM's options (heap, JIT, GC); default: a small heap with the C1 compiler only,
             * which starts fastest. The benchmark gives MirrorMaker the same options as Sextant.
             */
            public Builder jvmOptions(List<String> options) {
                this.jvmOptions = List.copyOf(options);
                return this;
            }

            /**
             * Appends a classpath entry after the distribution's jars: a directory or jar with classes that
             * {@code mm2.properties} names (replication policy, filters). It must only need MirrorMaker's own
             * classpath (connect-mirror 4.3.1 and its 4.3.1 clients).
             */
            public Builder extraClasspath(Path entry) {
                this.extraClasspath.add(Objects.requireNonNull(entry));
                return this;
            }

            public Options build() {
                return new Options(this);
            }

            private static int positive(int value, String what) {
                if (value < 1) {
                    throw new IllegalArgumentException(what + " must be positive: " + value);
                }
                return value;
            }

            private static int nonNegative(int value, String what) {
                if (value < 0) {
                    throw new IllegalArgumentException(what + " must not be negative: " + value);
                }
                return value;
            }
        }
    }

    /**
     * Starts MirrorMaker between two running clusters and waits until it logged that it started.
     *
     * @param parentDirectory where its subdirectory {@code mirror-maker} goes; {@code null} for a new temp
     *                        directory (deleted on close)
     */
    public static LocalMirrorMaker start(String sourceBootstrap, String destinationBootstrap, Options options,
                                         Path parentDirectory) {
        return start(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, sourceBootstrap),
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, destinationBootstrap), options, parentDirectory);
    }

    /**
     * As {@link #start(String, String, Options, Path)}, connecting with a full client config per cluster (with
     * {@code bootstrap.servers}), e.g. {@link LocalKafkaBroker#clientProperties()} of a secured broker.
     */
    public static LocalMirrorMaker start(Map<String, ?> sourceClient, Map<String, ?> destinationClient,
                                         Options options, Path parentDirectory) {
        String sourceBootstrap = MirrorMakerProperties.bootstrapOf(sourceClient);
        String destinationBootstrap = MirrorMakerProperties.bootstrapOf(destinationClient);
        long started = System.nanoTime();
        KafkaDistribution dist = options.distribution() != null
                ? options.distribution() : KafkaDistribution.mirrorMaker();
        boolean ownsParent = parentDirectory == null;
        Path parent = ownsParent ? LocalFiles.createOwnedTempDir(LocalClusters.TEMP_PREFIX) : parentDirectory;
        Path dir = parent.resolve(NAME);
        ChildJvm process = null;
        try {
            List<Path> classpath = new ArrayList<>(dist.classpath());
            classpath.addAll(options.extraClasspath());
            Files.createDirectories(dir);
            Path configFile = dir.resolve("mm2.properties");
            Path log4jFile = dir.resolve("log4j2.properties");
            Path logFile = dir.resolve(NAME + ".log");
            PropertiesFiles.write(configFile, "MirrorMaker 2 (generated by Sextant's LocalMirrorMaker)",
                    MirrorMakerProperties.mm2Properties(sourceClient, destinationClient, options));
            PropertiesFiles.write(log4jFile, "Logging of MirrorMaker 2", PropertiesFiles.log4j2(logFile));
            List<String> jvmOptions = new ArrayList<>(options.jvmOptions() != null ? options.jvmOptions()
                    : JVM_OPTIONS);
            jvmOptions.add("-Dlog4j2.configurationFile=" + log4jFile.toAbsolutePath());
            process = ChildJvm.start(NAME, jvmOptions, classpath, "org.apache.kafka.connect.mirror.MirrorMaker",
                    List.of(configFile.toString(), "--clusters", options.reverse() ? SOURCE_ALIAS : DESTINATION_ALIAS),
                    dir.resolve(NAME + ".out"));
            MirrorMakerLog.awaitStarted(process, logFile, started + options.readyTimeout().toNanos());
            LocalMirrorMaker mm = new LocalMirrorMaker(options, dir, ownsParent, sourceBootstrap,
                    destinationBootstrap, process);
            ShutdownRegistry.register(mm);
            LOG.info("MirrorMaker {} started in {} ms (pid {}), mirroring {} -> {} topics '{}'", dist.version(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), process.pid(), sourceBootstrap,
                    destinationBootstrap, options.topics());
            return mm;
        } catch (IOException e) {
            cleanUpFailedStart(process, ownsParent ? parent : dir);
            throw new UncheckedIOException("cannot prepare " + dir, e);
        } catch (RuntimeException e) {
            cleanUpFailedStart(process, ownsParent ? parent : dir);
            throw e;
        }
    }

    private static void cleanUpFailedStart(ChildJvm process, Path dir) {
        if (process != null) {
            process.stop(Duration.ofSeconds(5));
        }
        LocalFiles.deleteRecursively(dir);
    }

    /** The destination name of a mirrored source topic: {@code source.<topic>}. */
    public static String mirroredTopic(String sourceTopic) {
        return SOURCE_ALIAS + "." + sourceTopic;
    }

    public Options options() {
        return options;
    }

    public String sourceBootstrapServers() {
        return sourceBootstrap;
    }

    public String destinationBootstrapServers() {
        return destinationBootstrap;
    }

    /** MirrorMaker's log4j log (deleted with the directory on close). */
    public Path logFile() {
        return directory.resolve(NAME + ".log");
    }

    /**
     * Waits until the checkpoint task runs with group offset sync {@code enabled} (or not), as its logged task config
     * says. A restarted MirrorMaker first starts its tasks with the task configs the run before stored, and restarts
     * them with its own configuration only after its connector has written new ones: seen here, the old group sync
     * ran for 3 s after a restart that turned it off, and wrote offsets over a group Sextant had just taken over.
     */
    public void awaitCheckpointTaskGroupSync(boolean enabled, Duration timeout) {
        Await.until(timeout, "MirrorMaker's checkpoint task running with sync.group.offsets.enabled=" + enabled,
                () -> Boolean.valueOf(enabled).equals(MirrorMakerLog.checkpointTaskGroupSync(logFile())));
    }

    /** Its directory: mm2.properties and logs. */
    public Path directory() {
        return directory;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Stops MirrorMaker (SIGTERM, SIGKILL after 20 s) and deletes its directory. Idempotent; thread-safe. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShutdownRegistry.unregister(this);
        long started = System.nanoTime();
        process.stop(LocalKafkaBroker.STOP_GRACE);
        LocalFiles.deleteRecursively(ownsParentDirectory ? directory.getParent() : directory);
        LOG.info("MirrorMaker stopped in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    @Override
    public String toString() {
        return "MirrorMaker " + SOURCE_ALIAS + "->" + DESTINATION_ALIAS + " (pid " + pid() + ")";
    }
}
