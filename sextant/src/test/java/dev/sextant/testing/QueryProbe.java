package dev.sextant.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks every live instance for a sample of groups ({@code GET /v1/groups/{group}}) in rounds, on its own thread, while
 * instances come and go: each answer must be the group (200), or 503 with {@code Retry-After} (a rebalance or an
 * owner that cannot be reached right now); anything else is a violation. A round is complete when every live
 * instance answered 200 for every group.
 */
public final class QueryProbe implements AutoCloseable {

    private static final long ROUND_PAUSE_MS = 250;

    private final List<String> groups;
    private final Set<Integer> live = ConcurrentHashMap.newKeySet();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    /** Start times (System.nanoTime) of the rounds in which every live instance answered every group. */
    private final List<Long> complete = Collections.synchronizedList(new ArrayList<>());
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int answered503;

    public QueryProbe(List<String> groups) {
        this.groups = List.copyOf(groups);
        this.thread = new Thread(this::run, "query-probe");
        thread.setDaemon(true);
        thread.start();
    }

    /** The instance listening on {@code port} is up: it is asked from now on. */
    public void live(int port) {
        live.add(port);
    }

    /** The instance on {@code port} is going (killed or stopped): no longer asked. */
    public void gone(int port) {
        live.remove(port);
    }

    /** True when a complete round started after {@code sinceNanos}. */
    public boolean completeSince(long sinceNanos) {
        synchronized (complete) {
            return complete.stream().anyMatch(t -> t >= sinceNanos);
        }
    }

    public List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    /** How many answers were 503 with Retry-After (allowed while a rebalance is under way). */
    public int unavailableAnswers() {
        return answered503;
    }

    private void run() {
        while (running) {
            long started = System.nanoTime();
            Set<Integer> asked = Set.copyOf(live);
            boolean all = !asked.isEmpty();
            for (int port : asked) {
                for (String group : groups) {
                    all &= ask(port, group) && live.contains(port);
                }
            }
            if (all) {
                complete.add(started);
            }
            try {
                Thread.sleep(ROUND_PAUSE_MS); // the pace of the probe's rounds, not a wait for a condition
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** True for a 200; records anything but a 503 with Retry-After (or an instance going meanwhile). */
    private boolean ask(int port, String group) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/groups/" + group))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200 && response.body().contains("\"" + group + "\"")) {
                return true;
            }
            if (response.statusCode() == 503 && response.headers().firstValue("Retry-After").isPresent()) {
                answered503++;
                return false;
            }
            if (live.contains(port)) {
                violations.add("instance :" + port + " answered " + response.statusCode() + " for " + group + ": "
                        + response.body());
            }
        } catch (IOException e) {
            if (live.contains(port)) {
                violations.add("instance :" + port + " did not answer for " + group + ": " + e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
    }
}
