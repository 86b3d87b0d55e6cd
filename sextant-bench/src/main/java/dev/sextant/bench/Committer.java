package dev.sextant.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits source group offsets the way the workload's consumers would, with {@code Admin.alterConsumerGroupOffsets}
 * (the groups have no members, like a consumer that commits and leaves), pipelined up to a bound. A commit's time
 * is when its call returned: the broker has written it by then.
 *
 * <p>An Admin client keeps one request in flight per connection, so one client sends one commit at a time; the
 * committer spreads groups over several clients, always the same client for a group (its commits stay in order).
 */
final class Committer {

    private final List<Admin> admins;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final Samples callMillis = new Samples();

    Committer(List<Admin> sourceAdmins, int maxInFlight) {
        this.admins = sourceAdmins;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
    }

    /** Commits {@code offsets} (by partition of the group's source topic); {@code track}: latency is measured. */
    void commit(TrackedGroup group, long[] offsets, boolean track) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        for (int p = 0; p < offsets.length; p++) {
            commit.put(new TopicPartition(group.sourceTopic, p),
                    new OffsetAndMetadata(offsets[p], TrackedGroup.metadataFor(offsets[p])));
        }
        commit(group.name, commit, nanos -> group.committed(offsets, nanos, track));
    }

    /** Commits arbitrary offsets for a group that is not tracked (throughput prefill). */
    void commit(String group, Map<TopicPartition, OffsetAndMetadata> offsets, LongConsumer onDone) {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        long issued = System.nanoTime();
        Admin admin = admins.get(Math.floorMod(group.hashCode(), admins.size()));
        admin.alterConsumerGroupOffsets(group, offsets).all().whenComplete((v, e) -> {
            long now = System.nanoTime();
            callMillis.add((now - issued) / 1e6);
            inFlight.release();
            if (e != null) {
                failed.incrementAndGet();
                firstFailure.compareAndSet(null, e);
            } else {
                done.incrementAndGet();
                onDone.accept(now);
            }
        });
    }

    /** Waits until every commit issued so far has returned. */
    void drain() {
        try {
            inFlight.acquire(maxInFlight);
            inFlight.release(maxInFlight);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    long done() {
        return done.get();
    }

    long failed() {
        return failed.get();
    }

    /** How long each commit call took (issue to return), ms. */
    Samples callMillis() {
        return callMillis;
    }

    Throwable firstFailure() {
        return firstFailure.get();
    }

    /** Throws if a commit issued so far failed; {@code what}: what the commits were for, for the message. */
    void throwIfAnyFailed(String what) {
        if (failed() > 0) {
            throw new IllegalStateException(failed() + " commits failed while " + what, firstFailure());
        }
    }
}
