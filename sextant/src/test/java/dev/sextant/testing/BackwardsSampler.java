package dev.sextant.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;

/**
 * Reads where a set of groups stands on the destination every 100 ms and remembers every offset that moved
 * backwards between two samples, and how many moved forwards (to tell that something is being written).
 */
public final class BackwardsSampler implements AutoCloseable {

    private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();
    private final List<String> backwards = new ArrayList<>();
    private final AtomicLong forwardMoves = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

    public BackwardsSampler(GroupCommitter committer, Admin destination) {
        this(() -> committer.offsetsOn(destination));
    }

    /** @param read where each group stands now (one offset per group) */
    public BackwardsSampler(Supplier<Map<String, Long>> read) {
        sampler.scheduleWithFixedDelay(() -> read.get().forEach((group, offset) -> {
            Long before = lastSeen.put(group, offset);
            if (before != null && offset < before) {
                synchronized (backwards) {
                    backwards.add(group + ": " + before + " -> " + offset);
                }
            } else if (before == null || offset > before) {
                forwardMoves.incrementAndGet();
            }
        }), 0, 100, TimeUnit.MILLISECONDS);
    }

    public long forwardMoves() {
        return forwardMoves.get();
    }

    public List<String> backwards() {
        synchronized (backwards) {
            return List.copyOf(backwards);
        }
    }

    @Override
    public void close() throws InterruptedException {
        sampler.shutdownNow();
        sampler.awaitTermination(10, TimeUnit.SECONDS);
    }
}
