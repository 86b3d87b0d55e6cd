package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft Kafka cluster (one combined broker+controller) in its own child JVM, listening on
 * 127.0.0.1 only.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Once {@link Builder#start()} returns, the broker answers {@code Admin.describeCluster()}, i.e. it is
 *       usable; if it cannot get there, {@code start()} throws and leaves no process or directory behind.</li>
 *   <li>Everything of the broker (config, data, logs) lives in {@link #directory()}, which {@link #close()}
 *       deletes. Ports are fresh for every start, so clusters never collide with each other or a stale run.</li>
 *   <li>The cluster is configured for one node: every internal topic has replication factor 1.</li>
 *   <li>Unless secured, every listener is PLAINTEXT and anyone may do anything. A secured broker
 *       ({@link Builder#saslScram()} or {@link Builder#mutualTls()}) has no PLAINTEXT listener at all, authorizes
 *       with ACLs, and denies what no ACL allows; {@link #clientProperties()} is then the super user
 *       {@value #ADMIN_USER}'s config, so every helper built on it (Admin, producers, consumers) keeps working.
 *       See {@link BrokerSecurity} for the listeners and principals.</li>
 * </ul>
 */
public final class LocalKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalKafkaBroker.class);

    /** The super user of a secured broker whose credentials {@link #clientProperties()} returns. */
    public static final String ADMIN_USER = BrokerSecurity.ADMIN;
    /** The secured broker's own principal (its certificate's CN and SCRAM user); a super user too. */
    public static final String BROKER_USER = BrokerSecurity.BROKER_PRINCIPAL;

    static final Duration STOP_GRACE = Duration.ofSeconds(20);
    /** Listener names the broker defines itself (client listener by protocol, and the controller's). */
    private static final List<String> RESERVED_LISTENERS = List.of("PLAINTEXT", "SSL", "SASL_SSL", "SASL_PLAINTEXT",
            BrokerSecurity.CONTROLLER_LISTENER);
    private static final int START_ATTEMPTS = 3;

    private final String name;
    private final Path directory;
    private final boolean ownsParentDirectory;
    private final int port;
    private final int controllerPort;
    private final String clusterId;
    private final KafkaDistribution distribution;
    private final BrokerSecurity security;
    private final BrokerProcess process;
    private boolean closed;

    private LocalKafkaBroker(String name, Path directory, boolean ownsParentDirectory, int port, int controllerPort,
                             String clusterId, KafkaDistribution distribution, BrokerProcess process,
                             BrokerSecurity security) {
        this.security = security;
        this.name = name;
        this.directory = directory;
        this.ownsParentDirectory = ownsParentDirectory;
        this.port = port;
        this.controllerPort = controllerPort;
        this.clusterId = clusterId;
        this.distribution = distribution;
        this.process = process;
    }

    /** A builder for a broker called {@code name} (also its directory name and log file name). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Options of a broker; every option has a default suitable for tests. */
    public static final class Builder {
        private final String name;
        private KafkaDistribution distribution;
        private Path parentDirectory;
        private int offsetsTopicPartitions = 3;
        private Duration readyTimeout = Duration.ofSeconds(60);
        private int fixedPort;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private final Map<String, int[]> extraListeners = new LinkedHashMap<>();
        private SecurityProtocol security = SecurityProtocol.PLAINTEXT;
        private final Map<String, String> scramUsers = new LinkedHashMap<>();
        private String heap = "256m";

        private Builder(String name) {
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("broker name must be a simple file name: " + name);
            }
            this.name = name;
        }

        /** The broker's maximum heap ({@code -Xmx}, e.g. {@code 1g}); default 256m, enough for tests. */
        public Builder heap(String heap) {
            if (!heap.matches("\\d+[kmgKMG]")) {
                throw new IllegalArgumentException("heap must be a size such as 512m or 1g: " + heap);
            }
            this.heap = heap;
            return this;
        }

        /** The jars to run; default {@link KafkaDistribution#broker()}. */
        public Builder distribution(KafkaDistribution distribution) {
            this.distribution = Objects.requireNonNull(distribution);
            return this;
        }

        /**
         * The directory in which the broker creates its own subdirectory {@code <name>}; default a new temp
         * directory, deleted on close.
         */
        public Builder parentDirectory(Path parentDirectory) {
            this.parentDirectory = Objects.requireNonNull(parentDirectory);
            return this;
        }

        /** Partitions of {@code __consumer_offsets} (default 3: few partitions keep raw reads quick). */
        public Builder offsetsTopicPartitions(int partitions) {
            if (partitions < 1) {
                throw new IllegalArgumentException("partitions must be positive: " + partitions);
            }
            this.offsetsTopicPartitions = partitions;
            return this;
        }

        /** How long to wait for the broker to answer (default 60 s); format time counts too. */
        public Builder readyTimeout(Duration readyTimeout) {
            this.readyTimeout = Objects.requireNonNull(readyTimeout);
            return this;
        }

        /** Sets or replaces one {@code server.properties} entry (applied last). */
        public Builder property(String key, String value) {
            overrides.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
            return this;
        }

        /**
         * A second client listener {@code listenerName} bound to {@code port} that advertises {@code advertisedPort}
         * instead: clients that bootstrap through a proxy on {@code advertisedPort} (forwarding to {@code port}) keep
         * going through it, while other clients use the main listener directly. It speaks what the main listener
         * speaks (PLAINTEXT, or the secured protocol with the same credentials).
         */
        public Builder extraListener(String listenerName, int port, int advertisedPort) {
            if (!listenerName.matches("[A-Z][A-Z0-9_]*") || RESERVED_LISTENERS.contains(listenerName)) {
                throw new IllegalArgumentException("listener name must be upper case, not one of "
                        + RESERVED_LISTENERS + ": " + listenerName);
            }
            extraListeners.put(listenerName, new int[] {port, advertisedPort});
            return this;
        }

        /**
         * Secures the broker for clients on SASL_SSL with SCRAM-SHA-512, with an authorizer that denies what no ACL
         * allows. The users are the admin ({@link LocalKafkaBroker#clientProperties()}), the broker itself, and
         * those added with {@link #scramUser}, all created when the storage is formatted. Replaces
         * {@link #mutualTls()}.
         */
        public Builder saslScram() {
            this.security = SecurityProtocol.SASL_SSL;
            return this;
        }

        /**
         * Secures the broker for clients on SSL with a required client certificate (the principal is
         * {@code User:<CN>}), with an authorizer that denies what no ACL allows. Certificates for any CN are
         * issued on demand by {@link LocalKafkaBroker#clientProperties(String)}. Replaces {@link #saslScram()}.
         */
        public Builder mutualTls() {
            this.security = SecurityProtocol.SSL;
            return this;
        }

        /**
         * A SCRAM-SHA-512 user created at format time (needs {@link #saslScram()}); names and passwords are
         * {@code [A-Za-z0-9._-]+}, and {@value LocalKafkaBroker#ADMIN_USER} and
         * {@value LocalKafkaBroker#BROKER_USER} are taken.
         */
        public Builder scramUser(String name, String password) {
            BrokerSecurity.checkScramUser(Objects.requireNonNull(name), Objects.requireNonNull(password));
            scramUsers.put(name, password);
            return this;
        }

        /** A fixed client port (the controller port stays a free one); default: a free port. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be 0..65535, got " + port);
            }
            this.fixedPort = port;
            return this;
        }

        /** Formats the storage, starts the broker and waits until it answers. */
        public LocalKafkaBroker start() {
            if (!scramUsers.isEmpty() && security != SecurityProtocol.SASL_SSL) {
                throw new IllegalStateException(name + ": SCRAM users " + scramUsers.keySet()
                        + " need saslScram(), but the broker is " + security);
            }
            KafkaDistribution dist = distribution != null ? distribution : KafkaDistribution.broker();
            boolean ownsParent = parentDirectory == null;
            Path parent = ownsParent ? LocalFiles.createOwnedTempDir(LocalClusters.TEMP_PREFIX) : parentDirectory;
            try {
                List<Path> classpath = dist.classpath();
                for (int attempt = 1; ; attempt++) {
                    try {
                        LocalKafkaBroker broker = startOnce(dist, classpath, parent, ownsParent);
                        ShutdownRegistry.register(broker);
                        return broker;
                    } catch (PortTakenException e) {
                        if (attempt >= START_ATTEMPTS) {
                            throw new IllegalStateException(e.getMessage(), e);
                        }
                        LOG.warn("{}: a port was taken before the broker could bind it; retrying with new ports", name);
                    }
                }
            } catch (RuntimeException e) {
                if (ownsParent) {
                    LocalFiles.deleteRecursively(parent);
                }
                throw e;
            }
        }

        private LocalKafkaBroker startOnce(KafkaDistribution dist, List<Path> classpath, Path parent,
                                           boolean ownsParent) {
            long started = System.nanoTime();
            long deadline = started + readyTimeout.toNanos();
            Path dir = parent.resolve(name);
            LocalFiles.deleteRecursively(dir); // a previous attempt's dir: format refuses a formatted log dir
            List<Integer> ports = FreePorts.pick(2);
            int port = fixedPort > 0 ? fixedPort : ports.get(0);
            int controllerPort = ports.get(1);
            String clusterId = Uuid.randomUuid().toString(); // in-process: saves a JVM start of "random-uuid"
            Path configFile = dir.resolve("server.properties");
            Path log4jFile = dir.resolve("log4j2.properties");
            Path logFile = dir.resolve(name + ".log");
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + dir, e);
            }
            BrokerSecurity brokerSecurity = BrokerSecurity.forProtocol(security, dir.resolve("tls"), scramUsers);
            Map<String, String> config = BrokerProperties.serverProperties(port, controllerPort, dir.resolve("data"),
                    offsetsTopicPartitions, brokerSecurity);
            extraListeners.forEach((listener, bound) ->
                    BrokerProperties.addListener(config, listener, bound[0], bound[1], brokerSecurity));
            config.putAll(overrides);
            PropertiesFiles.write(configFile, "Kafka broker '" + name + "' (generated by Sextant's LocalKafkaBroker)",
                    config);
            PropertiesFiles.write(log4jFile, "Logging of broker '" + name + "'", PropertiesFiles.log4j2(logFile));
            List<String> logOptions = List.of("-Dlog4j2.configurationFile=" + log4jFile.toAbsolutePath());

            List<String> jvmOptions = BrokerProcess.jvmOptions(heap, logOptions);
            boolean inBrokerJvm = BrokerProcess.formatsInBrokerJvm(dist.version());
            if (!inBrokerJvm) {
                BrokerProcess.format(name, dir, classpath, configFile, clusterId, brokerSecurity, logOptions,
                        deadline);
            }
            long formatMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            BrokerProcess broker = inBrokerJvm
                    ? BrokerProcess.formatAndStart(name, dir, port, jvmOptions, classpath, configFile, clusterId,
                            brokerSecurity)
                    : BrokerProcess.start(name, dir, port, jvmOptions, classpath, configFile);
            LocalKafkaBroker result = new LocalKafkaBroker(name, dir, ownsParent, port, controllerPort, clusterId,
                    dist, broker, brokerSecurity);
            try {
                broker.awaitReady(result.clientProperties(), deadline);
            } catch (RuntimeException e) {
                broker.stop(Duration.ofSeconds(5));
                // the errors first: a broker that dies early may end its log with the long config dump
                String output = LocalFiles.matching(logFile, BrokerProcess.PROBLEM, 30) + "\n"
                        + LocalFiles.tail(logFile, 40) + "\n" + LocalFiles.tail(broker.outputFile(), 40);
                if (output.contains("Address already in use")) {
                    throw new PortTakenException(name + ": port " + port + " or " + controllerPort
                            + " was taken:\n" + output);
                }
                throw new IllegalStateException(e.getMessage() + "\nlast lines of " + logFile + ":\n" + output, e);
            }
            LOG.info("{}: Kafka {} ready at {} ({}) in {} ms ({}; pid {})", name, dist.version(),
                    result.bootstrapServers(), brokerSecurity,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    inBrokerJvm ? "formatted in its JVM" : "format " + formatMillis + " ms", broker.pid());
            return result;
        }
    }

    /** The broker's name, e.g. {@code source}. */
    public String name() {
        return name;
    }

    /** {@code 127.0.0.1:<port>} of the client listener. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /**
     * The minimum client config to reach this broker: {@code bootstrap.servers}, and on a secured broker the
     * security settings of the super user {@value #ADMIN_USER}. Mutable copy.
     */
    public Map<String, Object> clientProperties() {
        return withBootstrap(security.adminClientProperties());
    }

    /**
     * The client config of another principal on a secured broker: for SASL_SSL the SCRAM user {@code principal}
     * (created with {@link Builder#scramUser}, or {@value #ADMIN_USER}) with its password; for SSL a PEM key store
     * with a client certificate {@code CN=<principal>}, issued on first use. Key and trust stores are PEM files
     * ({@code ssl.*.type=PEM}, no passwords); the same material as PKCS12 is in {@link #certificates()}. Mutable copy.
     *
     * @throws IllegalStateException if the broker is not secured
     * @throws IllegalArgumentException for an unknown SCRAM user
     */
    public Map<String, Object> clientProperties(String principal) {
        return withBootstrap(security.clientProperties(Objects.requireNonNull(principal)));
    }

    /**
     * The client config of SCRAM user {@code user} logging in with {@code password}, whether or not that is its
     * password (to test refused logins). Mutable copy.
     *
     * @throws IllegalStateException unless the broker was built with {@link Builder#saslScram()}
     */
    public Map<String, Object> clientProperties(String user, String password) {
        return withBootstrap(security.scramClientProperties(Objects.requireNonNull(user),
                Objects.requireNonNull(password)));
    }

    private Map<String, Object> withBootstrap(Map<String, Object> securityProperties) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.putAll(securityProperties);
        return config;
    }

    /** What clients speak: PLAINTEXT, SASL_SSL (SCRAM-SHA-512) or SSL (with client certificates). */
    public SecurityProtocol securityProtocol() {
        return security.protocol();
    }

    /**
     * The broker's own CA, on a secured broker: its certificate as PKCS12 trust store and PEM file, and client
     * certificates for any CN as PKCS12 key stores and PEM files (those {@link #clientProperties(String)} uses on an
     * SSL broker).
     */
    public Optional<TestCertificates> certificates() {
        return security.certificates();
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public String clusterId() {
        return clusterId;
    }

    /** The Kafka version running (from its distribution). */
    public String version() {
        return distribution.version();
    }

    /** Kafka's log4j log of this broker (deleted with the directory on close). */
    public Path logFile() {
        return directory.resolve(name + ".log");
    }

    /** The broker's directory: server.properties, data/, logs. */
    public Path directory() {
        return directory;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Stops the broker as a rolling restart does (SIGTERM: a controlled shutdown) and starts it again on the same
     * ports and data; returns once it answers again, with how long it was down.
     */
    public synchronized Duration restart() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        long started = System.nanoTime();
        process.restart(STOP_GRACE);
        process.awaitReady(clientProperties(), System.nanoTime() + Duration.ofSeconds(60).toNanos());
        Duration down = Duration.ofNanos(System.nanoTime() - started);
        LOG.info("{}: restarted in {} ms (pid {})", name, down.toMillis(), process.pid());
        return down;
    }

    /**
     * Restarts the broker as {@link #restart()} does, with {@code changed} written over its configuration first (an
     * operator changing a broker setting, e.g. {@code offsets.retention.minutes}, in a rolling restart).
     */
    public synchronized Duration restart(Map<String, String> changed) {
        PropertiesFiles.change(directory.resolve("server.properties"), "Kafka broker '" + name + "' (generated by "
                + "Sextant's LocalKafkaBroker, changed for a restart)", changed);
        return restart();
    }

    /**
     * Stops the broker (SIGTERM, SIGKILL after 20 s) and deletes its directory. Idempotent; safe from any thread.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShutdownRegistry.unregister(this);
        long started = System.nanoTime();
        process.stop(STOP_GRACE);
        LocalFiles.deleteRecursively(ownsParentDirectory ? directory.getParent() : directory);
        LOG.info("{}: stopped in {} ms", name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    @Override
    public String toString() {
        return "broker " + name + " at " + bootstrapServers() + " (" + security + ", pid " + pid() + ")";
    }

    /** The broker could not bind a port picked for it (another process took it in between). */
    private static final class PortTakenException extends RuntimeException {
        PortTakenException(String message) {
            super(message);
        }
    }
}
