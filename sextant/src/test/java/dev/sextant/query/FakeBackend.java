package dev.sextant.query;

import dev.sextant.config.HostAndPort;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A query server on 127.0.0.1 with routing and stores in memory: one instance that owns every group, whose
 * Kafka Streams state the test sets.
 */
public final class FakeBackend implements AutoCloseable {

    public volatile String state = "RUNNING";
    /** While positive, routing answers "not running" and counts down: a rebalance that ends after N calls. */
    public final AtomicInteger unavailableCalls = new AtomicInteger();
    public volatile GroupRouter.Owner owner = new GroupRouter.Local(0);
    public volatile RuntimeException storeFailure;
    /** What the liveness check reports, empty while live. */
    public volatile Optional<String> livenessProblem = Optional.empty();
    /** What the readiness check reports, empty while ready. */
    public volatile Optional<String> readinessProblem = Optional.empty();
    public final Map<String, Views.GroupDetail> groups = new ConcurrentHashMap<>();
    public final Map<String, Views.TranslationView> translations = new ConcurrentHashMap<>();
    final List<String> groupsAsked = new ArrayList<>();
    /** While set, a store read waits for it to open (up to 30 s): a query that holds its thread. */
    public volatile CountDownLatch storesBlockedUntil;
    final QueryServer server;
    private final QueryServer.Settings settings;

    public FakeBackend(MeterRegistry registry) {
        this(registry, QueryServer.Settings.plain(new HostAndPort("127.0.0.1", 0)));
    }

    /** A backend served with {@code settings} (TLS, token); it forwards with the same settings. */
    public FakeBackend(MeterRegistry registry, QueryServer.Settings settings) {
        this.settings = settings;
        server = QueryServer.bind(settings);
        HostAndPort self = new HostAndPort("127.0.0.1", server.port());
        server.start(new QueryApi(new Router(self), new Stores(), new Forwarder(self, Duration.ofSeconds(5),
                settings.tls(), settings.token()),
                new Conflicts(), new Inputs(), () -> new Views.DestinationHealth(true, true, 0, null),
                new HealthChecks() {
                    @Override
                    public Optional<String> notLive() {
                        return livenessProblem;
                    }

                    @Override
                    public Optional<String> degraded() {
                        return readinessProblem;
                    }
                }, registry));
    }

    public String url() {
        return (settings.tls().isPresent() ? "https" : "http") + "://127.0.0.1:" + server.port();
    }

    public HostAndPort address() {
        return new HostAndPort("127.0.0.1", server.port());
    }

    @Override
    public void close() {
        server.close();
    }

    private final class Router implements GroupRouter {
        private final HostAndPort self;

        Router(HostAndPort self) {
            this.self = self;
        }

        @Override
        public Owner ownerOf(String group) {
            requireRunning();
            return owner;
        }

        @Override
        public HostAndPort self() {
            return self;
        }

        @Override
        public void requireRunning() {
            if (unavailableCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0 || !state.equals("RUNNING")) {
                throw QueryException.unavailable("Kafka Streams is REBALANCING (rebalancing or restoring); retry");
            }
        }

        @Override
        public String state() {
            return state;
        }

        @Override
        public int partitionCount() {
            return 1;
        }

        @Override
        public List<Integer> localPartitions() {
            return List.of(0);
        }

        @Override
        public List<Views.InstanceView> instances() {
            requireRunning();
            return List.of(new Views.InstanceView(self.toString(), true, List.of(0), List.of()));
        }
    }

    /** The groups the fake instance holds cut over. */
    final Set<String> cutOver = ConcurrentHashMap.newKeySet();

    private final class Stores implements LocalStores {
        @Override
        public Optional<Views.GroupDetail> group(String group, int partition) {
            if (storeFailure != null) {
                throw storeFailure;
            }

            synchronized (groupsAsked) {
                groupsAsked.add(group);
            }
            CountDownLatch blocked = storesBlockedUntil;
            if (blocked != null) {
                try {
                    blocked.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Optional.ofNullable(groups.get(group));
        }

        @Override
        public List<Views.GroupSummary> groups(int partition) {
            return groups.values().stream().map(d -> new Views.GroupSummary(d.group(), d.groupType(), "IN_SYNC",
                    d.partitions().size(), 1L, 2L, 0L)).toList();
        }

        @Override
        public Set<String> cutOverGroups() {
            return Set.copyOf(cutOver);
        }

        @Override
        public Optional<Views.TranslationView> translate(String topic, int partition, long offset) {
            return Optional.ofNullable(translations.get(topic + "-" + partition + "@" + offset));
        }
    }

    private static final class Conflicts implements ConflictSource {
        @Override
        public List<DeadLetterRecord> recent(String group, int limit) {
            return List.of(new DeadLetterRecord(group == null ? "g" : group, "consumer", Reason.GROUP_ACTIVE, List.of(),
                    "members there", 1L, 2L, "i"));
        }
    }

    private static final class Inputs implements SourceInputs {
        @Override
        public Status check() {
            return new Status(List.of(new Views.MissingInput("mm2-offset-syncs.destination.internal",
                    "MirrorMaker 2's offset syncs", true)), null);
        }
    }
}
