package dev.sextant.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.TopicPartition;

/**
 * A small client of Sextant's HTTP API, for applications that fail over to the destination cluster: it asks any
 * Sextant instance (the instance forwards to the one that holds the group) where a consumer group should resume on
 * the destination. It needs only the JDK's {@link HttpClient}, Jackson and the application's own {@code kafka-clients}
 * (3.0 or later: it is a {@code provided} dependency, docs/compatibility.md).
 *
 * <p>Failing over a consumer: repoint {@code bootstrap.servers} to the destination, take the group's destination
 * positions from Sextant, and seek to them <em>before the first poll</em> (otherwise {@code auto.offset.reset}
 * decides where it starts):
 *
 * <pre>{@code
 * SextantClient sextant = SextantClient.builder("http://sextant-0:8080", "http://sextant-1:8080")
 *         .deadline(Duration.ofSeconds(30))
 *         .build();
 * Map<TopicPartition, Long> offsets = sextant.offsets("billing");   // destination topics, e.g. source.orders-0 -> 1234
 *
 * Properties props = new Properties();
 * props.put("bootstrap.servers", "destination-broker:9092");
 * props.put("group.id", "billing");
 * props.put("auto.offset.reset", "latest");                          // mirror topics: never re-read from the start
 * try (KafkaConsumer<String, String> consumer =
 *              new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
 *     FailoverSeek.assignAndSeek(consumer, offsets);                // before the first poll
 *     while (running) {
 *         for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
 *             process(record);                                      // idempotently: up to the reported bound replays
 *         }
 *         consumer.commitSync();
 *     }
 * }
 * }</pre>
 *
 * <p>A consumer that subscribes instead of assigning uses {@link FailoverSeek#seekOnFirstAssignment}. Every call
 * retries while instances answer 503 (Kafka Streams rebalancing or restoring; the {@code Retry-After} header is
 * honoured) or cannot be reached (the next endpoint is tried), until the deadline; then, and for every other error,
 * it throws {@link SextantClientException}. Instances are thread-safe.
 */
public final class SextantClient {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final List<String> endpoints;
    private final Duration deadline;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final String token;

    private SextantClient(Builder builder) {
        this.endpoints = List.copyOf(builder.endpoints);
        this.deadline = builder.deadline;
        this.requestTimeout = builder.requestTimeout;
        this.token = builder.token;
        if (builder.http != null) {
            this.http = builder.http;
        } else {
            HttpClient.Builder http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2));
            if (builder.sslContext != null) {
                http.sslContext(builder.sslContext);
            }
            this.http = http.build();
        }
    }

    /** A client of one instance ({@code http://host:port}) with the default deadline. */
    public static SextantClient create(String url) {
        return builder(url).build();
    }

    /** @param urls one or more instances, {@code http://host:port}; tried in turn when one cannot be reached */
    public static Builder builder(String... urls) {
        return new Builder(List.of(urls));
    }

    public static final class Builder {
        private final List<String> endpoints = new ArrayList<>();
        private Duration deadline = Duration.ofSeconds(30);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private HttpClient http;
        private SSLContext sslContext;
        private String token;

        private Builder(List<String> urls) {
            if (urls.isEmpty()) {
                throw new IllegalArgumentException("at least one Sextant URL is needed");
            }
            for (String url : urls) {
                URI uri = URI.create(Objects.requireNonNull(url, "url"));
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new IllegalArgumentException("not an http(s)://host:port URL: " + url);
                }
                endpoints.add(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            }
        }

        /** How long one call keeps retrying 503s and unreachable instances (default 30 s). */
        public Builder deadline(Duration deadline) {
            this.deadline = Objects.requireNonNull(deadline);
            return this;
        }

        /** Timeout of a single HTTP request (default 10 s). */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout);
            return this;
        }

        /**
         * The bearer token, sent as {@code Authorization: Bearer <token>} on every call: Sextant's
         * {@code query.auth.token}.
         */
        public Builder bearerToken(String token) {
            this.token = Objects.requireNonNull(token);
            return this;
        }

        /**
         * TLS for {@code https://} URLs: trust (Sextant's certificate or its CA) and, when Sextant requires client
         * certificates, the key material to present; ignored when {@link #httpClient} is given.
         */
        public Builder sslContext(SSLContext sslContext) {
            this.sslContext = Objects.requireNonNull(sslContext);
            return this;
        }

        /** The JDK client to use (proxy, TLS settings); default a new one. */
        public Builder httpClient(HttpClient http) {
            this.http = Objects.requireNonNull(http);
            return this;
        }

        public SextantClient build() {
            return new SextantClient(this);
        }
    }

    // ---------------------------------------------------------------------------------------------- calls

    /**
     * Where {@code group} resumes on the destination: per destination topic-partition (mirror topic names), the
     * offset to seek to. Replay after resuming is at most the partition's {@code bound} (see {@link #group}).
     *
     * @throws SextantClientException 404 when Sextant does not know the group
     */
    public Map<TopicPartition, Long> offsets(String group) {
        return groupOffsets(group).toMap();
    }

    /** {@code GET /v1/groups/{group}/offsets}. */
    public GroupOffsets groupOffsets(String group) {
        return get("/v1/groups/" + pathSegment(group) + "/offsets", GroupOffsets.class);
    }

    /** {@code GET /v1/groups/{group}}: per source partition, the source offset, translation, bound and status. */
    public GroupPositions group(String group) {
        return get("/v1/groups/" + pathSegment(group), GroupPositions.class);
    }

    /** {@code GET /v1/groups}: every group Sextant knows, from every instance. */
    public List<GroupSummary> groups() {
        return get("/v1/groups", GroupList.class).groups();
    }

    /**
     * {@code GET /v1/translate}: where offset {@code offset} of a source partition is on the destination.
     *
     * @throws SextantClientException 404 when no offset sync covers it yet
     */
    public Translation translate(String topic, int partition, long offset) {
        return get("/v1/translate?topic=" + query(topic) + "&partition=" + partition + "&offset=" + offset,
                Translation.class);
    }

    /** {@code GET /v1/conflicts}: recent dead-letter records, newest last. */
    public List<Conflict> conflicts(String group, int limit) {
        return get("/v1/conflicts?limit=" + limit + (group == null ? "" : "&group=" + query(group)),
                ConflictList.class).conflicts();
    }

    /**
     * {@code GET /health/ready} of the instance asked: {@code UP}, or {@code DEGRADED} with what keeps it from syncing
     * (the destination unreachable, or not the cluster Sextant wrote to, a refused read); retried while it answers 503.
     */
    public Readiness readiness() {
        return get("/health/ready", Readiness.class);
    }

    /** {@code GET /v1/instances}: the instances and the {@code __consumer_offsets} partitions each one reads. */
    public List<Instance> instances() {
        return get("/v1/instances", InstanceList.class).instances();
    }

    /**
     * {@code GET /v1/cutovers}: per instance, the groups it holds cut over ({@code groups} null, with {@code problem},
     * for one that did not answer).
     */
    public List<InstanceCutovers> cutovers() {
        return get("/v1/cutovers", CutoverHolders.class).instances();
    }

    private <T> T get(String pathAndQuery, Class<T> type) {
        long end = System.nanoTime() + deadline.toNanos();
        String lastProblem = "no attempt";
        int lastStatus = -1;
        for (int attempt = 0; ; attempt++) {
            String base = endpoints.get(attempt % endpoints.size());
            long waitMs;
            try {
                long remaining = Math.max(1, (end - System.nanoTime()) / 1_000_000L);
                HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .timeout(Duration.ofMillis(Math.min(requestTimeout.toMillis(), remaining)))
                        .header("Accept", "application/json")
                        .GET();
                if (token != null) {
                    builder.header("Authorization", "Bearer " + token);
                }
                HttpRequest request = builder.build();
                HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                int status = response.statusCode();
                if (status == 200) {
                    return JSON.readValue(response.body(), type);
                }
                String message = errorMessage(response.body());
                if (status != 503) {
                    throw new SextantClientException(status, "GET " + base + pathAndQuery + ": " + status + " "
                            + message);
                }
                lastStatus = status;
                lastProblem = base + " answered 503: " + message;
                waitMs = retryAfterMillis(response);
            } catch (IOException e) {
                lastProblem = base + ": " + e;
                // every endpoint tried once: pause before the next round
                waitMs = (attempt + 1) % endpoints.size() == 0 ? 500 : 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SextantClientException(-1, "interrupted while asking Sextant", e);
            }
            long remainingMs = (end - System.nanoTime()) / 1_000_000L;
            if (remainingMs <= 0 || waitMs > remainingMs) {
                throw new SextantClientException(lastStatus, "no answer from Sextant within " + deadline.toMillis()
                        + " ms for GET " + pathAndQuery + "; last: " + lastProblem);
            }
            if (waitMs > 0) {
                try {
                    Thread.sleep(waitMs); // back-off between retries, as the server asked
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SextantClientException(-1, "interrupted while asking Sextant", e);
                }
            }
        }
    }

    private static long retryAfterMillis(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").map(v -> {
            try {
                return Math.max(0, Long.parseLong(v.trim())) * 1000L;
            } catch (NumberFormatException e) {
                return 1000L;
            }
        }).orElse(1000L);
    }

    private static String errorMessage(byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.hasNonNull("error")) {
                return node.get("error").asText();
            }
        } catch (IOException e) {
            // not JSON: show it as text
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    static String pathSegment(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("group must not be empty");
        }
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------------------------------------- answers

    /** The instance's readiness: {@code status} UP, DEGRADED or DOWN, and the problem when there is one. */
    public record Readiness(String status, String problem) {
    }

    /** {@code GET /v1/groups/{group}/offsets}: destination topic names and the offsets to seek to. */
    public record GroupOffsets(String group, String groupType, List<Offset> offsets) {

        /** Per destination topic-partition, the offset to seek to. */
        public Map<TopicPartition, Long> toMap() {
            Map<TopicPartition, Long> out = new LinkedHashMap<>();
            offsets.forEach(o -> out.put(new TopicPartition(o.topic(), o.partition()), o.offset()));
            return out;
        }
    }

    public record Offset(String topic, int partition, long offset) {
    }

    /**
     * {@code GET /v1/groups/{group}}.
     *
     * @param cutOver the group's cutover ({@code sextant cutover --apply}), or null while the sync moves it
     */
    public record GroupPositions(String group, String groupType, List<Partition> partitions, Cutover cutOver) {

        public GroupPositions(String group, String groupType, List<Partition> partitions) {
            this(group, groupType, partitions, null);
        }
    }

    /**
     * The group was cut over to the destination: the sync no longer moves it from the source.
     *
     * @param cutAt   when (epoch ms)
     * @param fenceMs how long its source offsets stood still before
     */
    public record Cutover(long cutAt, long fenceMs, String sourceCluster) {
    }

    /**
     * One source partition of a group; offsets and times not known are null.
     *
     * @param translatedOffset where the latest source commit resumes on {@code destinationTopic}
     * @param precision        {@code exact} or {@code bounded}
     * @param bound            records a consumer resuming at {@code translatedOffset} may replay, at most
     * @param appliedOffset    the offset Sextant last wrote on the destination, {@code appliedAt} when
     * @param status           APPLIED, PENDING, GROUP_ACTIVE, ... (docs/http-api.md, docs/openapi.yaml)
     * @param commitTimestamp  when the source commit at {@code sourceOffset} was made (epoch ms), null if unknown
     */
    public record Partition(String topic, int partition, String destinationTopic, long sourceOffset,
                            Long translatedOffset, String precision, Long bound, Long appliedOffset, Long appliedAt,
                            String status, Long commitTimestamp) {
    }

    /** One group of {@code GET /v1/groups}. */
    public record GroupSummary(String group, String groupType, String state, int partitions, Long lastSourceCommit,
                               Long lastApply, Long worstReplayBound) {
    }

    record GroupList(List<GroupSummary> groups) {
    }

    /** {@code GET /v1/translate}. */
    public record Translation(String topic, int partition, long offset, String destinationTopic,
                              long destinationOffset, String precision, long bound) {
    }

    /** A dead-letter record (its reasons: docs/how-it-works.md, docs/openapi.yaml). */
    public record Conflict(String group, String groupType, String reason, List<ConflictPartition> partitions,
                           String detail, Long sourceCommitTimestamp, long detectedAt, String instance) {
    }

    public record ConflictPartition(String topic, int partition, Long sourceOffset, Long translatedOffset,
                                    Long destinationOffset) {
    }

    record ConflictList(String group, int limit, List<Conflict> conflicts) {
    }

    /** One Sextant instance and the {@code __consumer_offsets} partitions it reads. */
    /** One instance's cutovers; {@code groups} null when it did not answer ({@code problem} says why). */
    public record InstanceCutovers(String address, List<String> groups, String problem) {
    }

    record CutoverHolders(List<InstanceCutovers> instances) {
    }

    public record Instance(String address, boolean self, List<Integer> partitions, List<Integer> standbyPartitions) {
    }

    record InstanceList(List<Instance> instances) {
    }
}
