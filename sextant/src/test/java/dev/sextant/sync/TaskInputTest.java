package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.DestinationView;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceOffsets;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.MutableClock;
import dev.sextant.testing.QuietSourceOffsets;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** When a task that started on this instance has caught up with its input (until then: "retry", not "unknown"). */
class TaskInputTest {

    private static final TopicPartition INPUT = new TopicPartition("__consumer_offsets", 3);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-04T10:00:00Z"));

    /** A source whose input partition ends at {@code end} and was committed at {@code committed} (-1: never). */
    private TaskInput started(long end, long committed) {
        SourceOffsets source = new QuietSourceOffsets() {
            @Override
            public CompletableFuture<Map<TopicPartition, StableEnd>> stableEnds(Set<TopicPartition> partitions) {
                return CompletableFuture.completedFuture(Map.of(INPUT, new StableEnd(end, end)));
            }

            @Override
            public CompletableFuture<Map<TopicPartition, Long>> committed(String group, Set<TopicPartition> tps) {
                return CompletableFuture.completedFuture(committed < 0 ? Map.of() : Map.of(INPUT, committed));
            }
        };
        InMemoryDestination destination = new InMemoryDestination();
        SyncRuntime runtime = new SyncRuntime(new DestinationView(destination, clock), null, null, source, null,
                new SextantMetrics(new SimpleMeterRegistry()));
        TaskInput input = new TaskInput(TaskFakes.settings(clock), runtime, INPUT.partition());
        input.start();
        this.runtime = runtime;
        return input;
    }

    private SyncRuntime runtime;

    private boolean catchingUp() {
        return runtime.catchingUp().catchingUp(INPUT.partition());
    }

    /** Flushes every 250 ms over {@code duration}, reading nothing. */
    private void idle(TaskInput input, Duration duration) {
        for (long ms = 0; ms < duration.toMillis(); ms += 250) {
            clock.advance(Duration.ofMillis(250));
            input.atFlush();
        }
    }

    @Test
    void aTaskCommittedAtItsInputsEndHasNothingToCatchUpWith() {
        TaskInput input = started(500, 500);
        input.atFlush();
        assertFalse(catchingUp());
    }

    @Test
    void aTaskThatReadNothingOfItsBacklogKeepsSayingRetryWhileItsThreadIsStarved() {
        TaskInput input = started(500, 200); // 300 commits to read again: the previous owner's last Streams commit
        idle(input, Duration.ofSeconds(30));
        assertTrue(catchingUp(), "nothing read yet: a group not read yet is 'retry', not 'unknown'");
        input.read(499, clock.millis());
        input.atFlush();
        assertFalse(catchingUp(), "caught up with the record before the end");
    }

    @Test
    void aBacklogThatEndsOnMarkersIsCaughtUpWhenNothingMoreComes() {
        TaskInput input = started(500, 200);
        input.read(450, clock.millis()); // the rest up to 500: transaction markers, never handed to the task
        idle(input, Duration.ofSeconds(6));
        assertFalse(catchingUp());
    }

    @Test
    void onlyMarkersOrAbortedRecordsLeftAfterTheCommitAreCaughtUpAfterTheLongerWait() {
        TaskInput input = started(500, 490);
        idle(input, Duration.ofSeconds(10));
        assertTrue(catchingUp());
        idle(input, Duration.ofMillis(TaskInput.CATCH_UP_UNREAD_MS));
        assertFalse(catchingUp());
    }
}
