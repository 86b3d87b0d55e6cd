package dev.sextant.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;

/**
 * {@link SourceInputs} with one Admin {@code listTopics} (internal topics included), remembered for a few seconds so
 * a health probe every second costs the source little.
 */
public final class AdminSourceInputs implements SourceInputs {

    private static final long CACHE_MS = 5_000;

    private final Map<String, Object> clientConfig;
    private final Map<String, Views.MissingInput> inputs = new LinkedHashMap<>();
    private Admin admin;
    private Status cached;
    private long cachedAt;

    public AdminSourceInputs(Map<String, Object> clientConfig) {
        this.clientConfig = clientConfig;
    }

    /** Declares an input; {@code required} false for one whose absence is normal (no share group ran yet). */
    public AdminSourceInputs input(String topic, String description, boolean required) {
        inputs.put(topic, new Views.MissingInput(topic, description, required));
        return this;
    }

    @Override
    public synchronized Status check() {
        long now = System.currentTimeMillis();
        if (cached != null && now - cachedAt < CACHE_MS) {
            return cached;
        }
        Status status;
        try {
            if (admin == null) {
                admin = Admin.create(clientConfig);
            }
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true).timeoutMs(3_000))
                    .names().get(4, TimeUnit.SECONDS);
            List<Views.MissingInput> missing = new ArrayList<>();
            inputs.forEach((topic, input) -> {
                if (!topics.contains(topic)) {
                    missing.add(input);
                }
            });
            status = new Status(List.copyOf(missing), null);
        } catch (ExecutionException e) {
            status = new Status(List.of(), "cannot list the source's topics: " + e.getCause());
        } catch (TimeoutException e) {
            status = new Status(List.of(), "the source cluster did not answer within 4 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = new Status(List.of(), "interrupted");
        } catch (RuntimeException e) {
            status = new Status(List.of(), "cannot ask the source cluster: " + e);
        }
        cached = status;
        cachedAt = now;
        return status;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
            admin = null;
        }
    }
}
