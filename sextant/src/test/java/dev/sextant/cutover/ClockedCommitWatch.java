package dev.sextant.cutover;

import dev.sextant.source.CommitWatch;
import dev.sextant.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@link CommitWatch} whose {@link #poll} moves the test's clock by the wait asked instead of waiting, and then
 * runs what the test scheduled up to the new time: the cutover's loops, which pass time only through the watch and
 * read it from the clock, run at once.
 */
final class ClockedCommitWatch implements CommitWatch {

    private final MutableClock clock;
    private final long opened;
    private final Map<String, List<Commit>> commits = new HashMap<>();
    private final TreeMap<Long, List<Runnable>> scheduled = new TreeMap<>();
    private int polls;

    ClockedCommitWatch(MutableClock clock) {
        this.clock = clock;
        this.opened = clock.millis();
    }

    /** Runs {@code action} in the first poll that reaches {@code sinceOpened} after the watch was opened. */
    void at(Duration sinceOpened, Runnable action) {
        scheduled.computeIfAbsent(opened + sinceOpened.toMillis(), t -> new ArrayList<>()).add(action);
    }

    /** A commit of {@code group} seen now. */
    void commit(String group, TopicPartition partition, long offset) {
        commits.computeIfAbsent(group, g -> new ArrayList<>())
                .add(new Commit(group, partition, offset, clock.millis()));
    }

    int polls() {
        return polls;
    }

    @Override
    public void poll(Duration wait) {
        polls++;
        clock.advance(wait);
        while (!scheduled.isEmpty() && scheduled.firstKey() <= clock.millis()) {
            scheduled.pollFirstEntry().getValue().forEach(Runnable::run);
        }
    }

    @Override
    public List<Commit> commits(String group) {
        return List.copyOf(commits.getOrDefault(group, List.of()));
    }

    @Override
    public void close() {
        // nothing to release
    }
}
