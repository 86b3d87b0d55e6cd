package dev.sextant.query;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.config.HostAndPort;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.kafka.common.internals.Topic;

/**
 * The HTTP API's endpoints: which path answers what, and where the data comes from. Routing to the instance that
 * holds a group is {@link GroupRouter}'s; reading stores is {@link LocalStores}'; bytes on the wire are
 * {@link QueryServer}'s.
 *
 * <pre>
 *   GET /v1/groups                    every group, from every instance (fan-out, merged; 503 unless complete)
 *   GET /v1/groups/{group}            per partition, from the owner (forwarded when it is another instance)
 *   GET /v1/groups/{group}/offsets    destination positions to seek to, from the owner
 *   GET /v1/translate?topic=&amp;partition=&amp;offset=   one translation (offset-sync history: every instance)
 *   GET /v1/conflicts?group=&amp;limit=  recent dead-letter records, newest last
 *   GET /v1/instances                 instances and their __consumer_offsets partitions
 *   GET /v1/openapi.yaml              this API's OpenAPI description (docs/openapi.yaml)
 *   GET /health/live, /health/ready, /metrics
 *   GET /, /ui/{file}                 the status page
 * </pre>
 *
 * <p>The routes are registered in one table ({@link #paths()}), which docs/openapi.yaml documents path by path.
 *
 * <p>Invariant: an answer is right or it is a 503 with {@code Retry-After}; while Kafka Streams is not RUNNING, or
 * the owner of a group is moving, nothing is answered from a store.
 */
public final class QueryApi {

    /** Path of the internal endpoint that answers one instance's own groups, for the fan-out of /v1/groups. */
    public static final String LOCAL_GROUPS_PATH = "/internal/v1/local-groups";
    /** Path of the internal endpoint that answers one instance's own cutovers, for the fan-out of /v1/cutovers. */
    public static final String LOCAL_CUTOVERS_PATH = "/internal/v1/local-cutovers";
    /** Path of this API's OpenAPI description (docs/openapi.yaml, from the jar). */
    public static final String OPENAPI_PATH = "/v1/openapi.yaml";
    static final int DEFAULT_CONFLICTS_LIMIT = 50;
    public static final int MAX_CONFLICTS_LIMIT = 10_000;
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /**
     * One request, as the transport hands it over.
     *
     * @param path         the decoded path segments ({@code /v1/groups/a%2Fb} → {@code v1, groups, a/b})
     * @param rawQuery     the query string as received, or null
     * @param pathAndQuery the raw path and query, for forwarding as received
     * @param forwarded    true when another instance sent it (it is never forwarded again)
     */
    public record Request(String method, List<String> path, String rawQuery, String pathAndQuery, boolean forwarded) {

        QueryParams params() {
            return QueryParams.parse(rawQuery);
        }
    }

    private final GroupRouter router;
    private final LocalStores stores;
    private final Forwarder forwarder;
    private final ConflictSource conflicts;
    private final SourceInputs inputs;
    private final Supplier<Views.DestinationHealth> destination;
    private final HealthChecks health;
    /** Set once Kafka Streams was seen running: a later rebalance keeps the instance ready. */
    private volatile boolean servedBefore;
    private final MeterRegistry registry;

    public QueryApi(GroupRouter router, LocalStores stores, Forwarder forwarder, ConflictSource conflicts,
                    SourceInputs inputs, Supplier<Views.DestinationHealth> destination, HealthChecks health,
                    MeterRegistry registry) {
        this.health = health;
        this.router = router;
        this.stores = stores;
        this.forwarder = forwarder;
        this.conflicts = conflicts;
        this.inputs = inputs;
        this.destination = destination;
        this.registry = registry;
    }

    /** Answers a request; throws {@link QueryException} for every answer that is not a 200. */
    public Reply handle(Request request) {
        Supplier<Reply> endpoint = route(request);
        if (endpoint == null) {
            throw noSuchPath(request);
        }
        if (!request.method().equals("GET")) {
            throw QueryException.methodNotAllowed(request.method());
        }
        return endpoint.get();
    }

    /**
     * Every path the API answers, as an OpenAPI path template ({@code {name}} stands for one non-empty segment), and
     * its endpoint: the one place a route is added, and docs/openapi.yaml documents each (OpenApiDescriptionTest).
     */
    private static final Map<String, Endpoint> ROUTES = routes();

    /** One endpoint: {@code params} are the path's values for the template's {@code {name}}s, in order. */
    private interface Endpoint {
        Reply answer(QueryApi api, List<String> params, Request request);
    }

    private static Map<String, Endpoint> routes() {
        Map<String, Endpoint> routes = new LinkedHashMap<>();
        routes.put("/", (api, params, r) -> StatusPage.serve(r.path()).orElseThrow(() -> noSuchPath(r)));
        routes.put("/ui/{file}", (api, params, r) -> StatusPage.serve(r.path()).orElseThrow(() -> noSuchPath(r)));
        routes.put("/health/live", (api, params, r) -> api.live());
        routes.put("/health/ready", (api, params, r) -> api.ready());
        routes.put("/metrics", (api, params, r) -> api.metrics());
        routes.put("/v1/groups", (api, params, r) -> api.groups());
        routes.put("/v1/groups/{group}", (api, params, r) -> api.groupDetail(params.get(0), r));
        routes.put("/v1/groups/{group}/offsets", (api, params, r) -> api.offsets(params.get(0), r));
        routes.put("/v1/translate", (api, params, r) -> api.translate(r.params()));
        routes.put("/v1/conflicts", (api, params, r) -> api.conflicts(r.params()));
        routes.put("/v1/instances", (api, params, r) -> Reply.ok(new Views.InstanceList(api.router.instances())));
        routes.put("/v1/cutovers", (api, params, r) -> Reply.ok(api.cutoverHolders()));
        routes.put(OPENAPI_PATH, (api, params, r) -> OpenApiDescription.reply());
        routes.put(LOCAL_GROUPS_PATH, (api, params, r) -> Reply.ok(api.localGroups()));
        routes.put(LOCAL_CUTOVERS_PATH, (api, params, r) -> Reply.ok(new Views.LocalCutovers(
                api.router.self().toString(), List.copyOf(api.stores.cutOverGroups()))));
        return Collections.unmodifiableMap(routes);
    }

    /** The paths the API answers, as OpenAPI path templates, in the order they are matched. */
    public static Set<String> paths() {
        return ROUTES.keySet();
    }

    private Supplier<Reply> route(Request r) {
        for (Map.Entry<String, Endpoint> route : ROUTES.entrySet()) {
            List<String> params = match(route.getKey(), r.path());
            if (params != null) {
                return () -> route.getValue().answer(this, params, r);
            }
        }
        return null;
    }

    /** The values of the template's {@code {name}} segments when {@code path} matches it, else null. */
    private static List<String> match(String template, List<String> path) {
        List<String> expected = List.of(template.substring(1).split("/", -1));
        if (expected.size() != path.size()) {
            return null;
        }
        List<String> params = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            String segment = expected.get(i);
            if (segment.startsWith("{") && segment.endsWith("}")) {
                if (path.get(i).isEmpty()) {
                    return null;
                }
                params.add(path.get(i));
            } else if (!segment.equals(path.get(i))) {
                return null;
            }
        }
        return params;
    }

    private static QueryException noSuchPath(Request request) {
        return QueryException.notFound("no such path: " + request.pathAndQuery());
    }

    // ---------------------------------------------------------------------------------------------- groups

    private Reply groupDetail(String group, Request request) {
        GroupRouter.Owner owner = router.ownerOf(group);
        if (owner instanceof GroupRouter.Local local) {
            return Reply.ok(stores.group(group, local.partition()).orElseThrow(() -> unknownGroup(group)));
        }
        return forwarded(((GroupRouter.Remote) owner).address(), request);
    }

    private Reply offsets(String group, Request request) {
        GroupRouter.Owner owner = router.ownerOf(group);
        if (owner instanceof GroupRouter.Local local) {
            return Reply.ok(stores.offsets(group, local.partition()).orElseThrow(() -> unknownGroup(group)));
        }
        return forwarded(((GroupRouter.Remote) owner).address(), request);
    }

    private Reply forwarded(HostAndPort owner, Request request) {
        if (request.forwarded()) {
            // The sender thought this instance owns the group, this instance thinks otherwise: the assignment is
            // changing. Forwarding again could loop; the client retries once the metadata settles.
            throw QueryException.unavailable("the group's owner is moving (this instance routes it to " + owner
                    + "); retry");
        }
        return forwarder.forward(owner, request.pathAndQuery());
    }

    private static QueryException unknownGroup(String group) {
        return QueryException.notFound("group '" + group + "' is not known to Sextant (no offset commit seen, or "
                + "excluded by groups.include/groups.exclude)");
    }

    private Views.LocalGroups localGroups() {
        router.requireRunning();
        List<Integer> read = new ArrayList<>();
        List<Views.GroupSummary> groups = new ArrayList<>();
        for (int partition : router.localPartitions()) {
            try {
                groups.addAll(stores.groups(partition));
                read.add(partition);
            } catch (QueryException e) {
                // not queryable right now: left out, so the merge sees the gap and answers 503
            }
        }
        return new Views.LocalGroups(router.self().toString(), read, groups);
    }

    private Reply groups() {
        router.requireRunning();
        int partitions = router.partitionCount();
        Set<Integer> covered = new TreeSet<>();
        Map<String, Views.GroupSummary> merged = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Answer<Views.LocalGroups> answer : askEveryInstance(this::localGroups, LOCAL_GROUPS_PATH,
                QueryApi::parseLocalGroups)) {
            if (answer.value() == null) {
                failures.add(answer.problem());
                continue;
            }
            covered.addAll(answer.value().partitions());
            answer.value().groups().forEach(g -> merged.putIfAbsent(g.group(), g));
        }
        Set<Integer> missing = new TreeSet<>();
        for (int p = 0; p < partitions; p++) {
            if (!covered.contains(p)) {
                missing.add(p);
            }
        }
        if (!missing.isEmpty()) {
            throw QueryException.unavailable("partitions " + missing + " of " + Topic.GROUP_METADATA_TOPIC_NAME
                    + " are not served by any instance right now (rebalancing)"
                    + (failures.isEmpty() ? "" : "; " + String.join("; ", failures)) + "; retry");
        }
        return Reply.ok(new Views.GroupList(List.copyOf(merged.values())));
    }

    /**
     * Every instance's cutovers, each asked at once; one that does not answer is listed with why. What
     * {@code sextant cutover} waits on: a group is cut over once every instance holds it, so a task that moves finds
     * it held wherever it goes.
     */
    private Views.CutoverHolders cutoverHolders() {
        router.requireRunning();
        return new Views.CutoverHolders(askEveryInstance(() -> List.copyOf(stores.cutOverGroups()),
                LOCAL_CUTOVERS_PATH, QueryApi::parseLocalCutovers).stream()
                .map(a -> new Views.InstanceCutovers(a.address(), a.value(), a.problem())).toList());
    }

    /** One instance's answer to a fan-out: its value, or (null) why it gave none. */
    private record Answer<T>(String address, T value, String problem) {
    }

    /** Asks every instance at once (this one through {@code local}, the others at {@code path}), each up to 15 s. */
    private <T> List<Answer<T>> askEveryInstance(Supplier<T> local, String path,
                                                 BiFunction<HostAndPort, Reply, T> parse) {
        Map<String, CompletableFuture<T>> asked = new LinkedHashMap<>();
        for (Views.InstanceView instance : router.instances()) {
            if (instance.self()) {
                CompletableFuture<T> mine;
                try {
                    mine = CompletableFuture.completedFuture(local.get());
                } catch (QueryException e) {
                    mine = CompletableFuture.failedFuture(e);
                }
                asked.put(instance.address(), mine);
            } else {
                HostAndPort address = HostAndPort.parse(instance.address());
                asked.put(instance.address(), forwarder.forwardAsync(address, path)
                        .thenApply(reply -> parse.apply(address, reply)));
            }
        }
        List<Answer<T>> answers = new ArrayList<>();
        for (Map.Entry<String, CompletableFuture<T>> e : asked.entrySet()) {
            try {
                answers.add(new Answer<>(e.getKey(), e.getValue().get(15, TimeUnit.SECONDS), null));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw QueryException.unavailable("interrupted while asking the other instances");
            } catch (Exception failed) {
                Throwable cause = failed instanceof ExecutionException || failed instanceof CompletionException
                        ? failed.getCause() : failed;
                answers.add(new Answer<>(e.getKey(), null, String.valueOf(cause.getMessage())));
            }
        }
        return answers;
    }

    private static List<String> parseLocalCutovers(HostAndPort address, Reply reply) {
        if (reply.status() == 404) {
            throw QueryException.unavailable("instance " + address + " does not say which groups it holds cut over "
                    + "(404: a release before this one, during a rolling upgrade?)");
        }
        if (reply.status() != 200) {
            throw QueryException.unavailable("instance " + address + " answered " + reply.status() + ": "
                    + reply.bodyText());
        }
        try {
            return JSON.readValue(reply.body(), Views.LocalCutovers.class).groups();
        } catch (IOException e) {
            throw QueryException.unavailable("instance " + address + " answered something else than its cutovers: "
                    + e.getMessage());
        }
    }

    private static Views.LocalGroups parseLocalGroups(HostAndPort address, Reply reply) {
        if (reply.status() != 200) {
            throw QueryException.unavailable("instance " + address + " answered " + reply.status() + ": "
                    + reply.bodyText());
        }
        try {
            return JSON.readValue(reply.body(), Views.LocalGroups.class);
        } catch (IOException e) {
            throw QueryException.unavailable("instance " + address + " answered something else than its groups: "
                    + e.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------- translate

    private Reply translate(QueryParams params) {
        String topic = params.required("topic");
        int partition = params.requiredNonNegativeInt("partition");
        long offset = params.requiredNonNegativeLong("offset");
        router.requireRunning();
        Optional<Views.TranslationView> translation = stores.translate(topic, partition, offset);
        return Reply.ok(translation.orElseThrow(() -> QueryException.notFound("no offset sync covers " + topic + "-"
                + partition + " at offset " + offset + " (MirrorMaker 2 has not synced it yet, or the topic is "
                + "not mirrored)")));
    }

    // ---------------------------------------------------------------------------------------------- conflicts

    private Reply conflicts(QueryParams params) {
        String group = params.optional("group").orElse(null);
        int limit = params.optionalInt("limit", 1, MAX_CONFLICTS_LIMIT, DEFAULT_CONFLICTS_LIMIT);
        return Reply.ok(new Views.ConflictList(group, limit, conflicts.recent(group, limit)));
    }

    // ---------------------------------------------------------------------------------------------- operations

    private Reply live() {
        String state = router.state();
        Optional<String> problem = health.notLive();
        boolean failed = state.equals("ERROR") || state.equals("PENDING_ERROR") || problem.isPresent();
        return Reply.json(failed ? 503 : 200, new Views.Health(failed ? "DOWN" : "UP", state,
                router.self().toString(), null, null, null, problem.orElse(null)));
    }

    /**
     * Ready while the process can serve: Kafka Streams running, or rebalancing after it ran (its stores kept serving
     * what they hold; a group that moves answers 503 on its own route). Before it first ran (restoring at start) it
     * is not. What keeps it from syncing is said in the body ({@code DEGRADED}, with the problem), not in the status.
     */
    private Reply ready() {
        String state = router.state();
        if (state.equals("RUNNING")) {
            servedBefore = true;
        }
        boolean up = state.equals("RUNNING") || state.equals("REBALANCING") && servedBefore;
        Optional<String> problem = health.degraded();
        SourceInputs.Status source = inputs.check();
        String status = !up ? "DOWN" : problem.isPresent() ? "DEGRADED" : "UP";
        Reply reply = Reply.json(up ? 200 : 503, new Views.Health(status, state,
                router.self().toString(), destination.get(), source.missing(), source.error(), problem.orElse(null)));
        return up ? reply : reply.withHeader("Retry-After", "1");
    }

    private Reply metrics() {
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            return Reply.text(200, PROMETHEUS_TEXT, prometheus.scrape());
        }
        throw QueryException.notFound("this instance does not export metrics in Prometheus format");
    }
}
