package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.WriteConcurrencyLimit.Outcome;
import dev.sextant.apply.WriteConcurrencyLimit.Permit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WriteConcurrencyLimitTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Deque<Permit> inFlight = new ArrayDeque<>();

    private WriteConcurrencyLimit limit(int max) {
        return new WriteConcurrencyLimit(max, nanos::get);
    }

    private void advanceMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Acquires until the limit refuses: what the dispatcher does while writes wait. */
    private void fill(WriteConcurrencyLimit limit) {
        Optional<Permit> permit;
        while ((permit = limit.tryAcquire()).isPresent()) {
            inFlight.addLast(permit.get());
        }
    }

    /**
     * Rounds of writes with a backlog: every write in flight is answered after {@code latencyMillis}, and each answer
     * makes room for a waiting write at once, so the whole limit is always in use.
     */
    private void backlog(WriteConcurrencyLimit limit, int rounds, long latencyMillis) {
        fill(limit);
        for (int r = 0; r < rounds; r++) {
            advanceMillis(latencyMillis);
            int round = inFlight.size();
            for (int i = 0; i < round; i++) {
                limit.release(inFlight.pollFirst(), Outcome.ANSWERED);
                fill(limit);
            }
        }
    }

    @Test
    void startsAtFourOrTheCeilingIfLower() {
        assertEquals(4, limit(16).limit());
        assertEquals(2, limit(2).limit());
        assertEquals(1, limit(1).limit());
        assertThrows(IllegalArgumentException.class, () -> limit(0));
    }

    @Test
    void givesPermitsOnlyUpToTheLimit() {
        WriteConcurrencyLimit limit = limit(16);
        fill(limit);
        assertEquals(4, inFlight.size());
        assertEquals(4, limit.inFlight());
        assertTrue(limit.tryAcquire().isEmpty());
        limit.release(inFlight.pollFirst(), Outcome.NEUTRAL);
        assertTrue(limit.tryAcquire().isPresent());
    }

    @Test
    void risesByOnePerRoundWhileWritesAreFastAndUseTheWholeLimit() {
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 1, 5);
        assertEquals(5, limit.limit(), "a round of 4 answered writes: one more");
        backlog(limit, 1, 5);
        assertEquals(6, limit.limit());
        backlog(limit, 40, 5);
        assertEquals(16, limit.limit(), "up to the ceiling, never past it");
        assertEquals(16, limit.inFlight());
    }

    @Test
    void doesNotRiseWhileWritesLeaveTheLimitUnused() {
        WriteConcurrencyLimit limit = limit(16);
        for (int i = 0; i < 1_000; i++) {
            // one write at a time: a fast answer says nothing about whether the destination absorbs more
            Permit permit = limit.tryAcquire().orElseThrow();
            advanceMillis(5);
            limit.release(permit, Outcome.ANSWERED);
        }
        assertEquals(4, limit.limit());
    }

    @Test
    void fallsWhileManyWritesQueueAtTheDestinationAndHoldsWhereFewDo() {
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 40, 5);
        assertEquals(16, limit.limit());

        backlog(limit, 1, 40); // within the 5 ms baseline and its slack: no queue
        assertEquals(16, limit.limit());

        // 200 ms against 5 ms: of 16 in flight, about 12 wait at the destination
        backlog(limit, 3, 200);
        int lowered = limit.limit();
        assertTrue(lowered < 16 && lowered >= 6, "lowered multiplicatively, once per round: " + lowered);

        // as long as it stays that slow: about 4 queued at 6 in flight, below the 6 that lower it
        backlog(limit, 50, 200);
        assertEquals(6, limit.limit(), "holds where few writes queue");
    }

    @Test
    void aFewWritesInFlightAreNeverLoweredForLatencyAlone() {
        // latency that grows while 4 writes are in flight is not a queue they make (a busy machine, a slow network):
        // lowering the limit would only queue writes here
        WriteConcurrencyLimit limit = limit(4);
        backlog(limit, 10, 2);
        backlog(limit, 50, 100);
        assertEquals(4, limit.limit());
    }

    @Test
    void aBusyMachinesSlowerAnswersAreNotAQueue() {
        // the cores shared with the brokers and the source's load: answers take 30 ms where the baseline is 2 ms, at
        // any limit; read as a queue, that held the limit at 6-8 while the backlog grew (issue 49)
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 10, 2);
        backlog(limit, 60, 30);
        assertEquals(16, limit.limit());
    }

    @Test
    void fallsOnceForARoundOfTransientFailures() {
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 40, 5);
        assertEquals(16, limit.limit());

        // the destination stops answering: every write of the round times out
        advanceMillis(30_000);
        List<Permit> round = new ArrayList<>(inFlight);
        inFlight.clear();
        round.forEach(p -> limit.release(p, Outcome.CONGESTED));
        assertEquals(12, limit.limit(), "x0.75, once: the other failures answer the load the first one did");

        // writes sent after the decrease fail too: the next round lowers it again
        fill(limit);
        assertEquals(12, inFlight.size());
        advanceMillis(30_000);
        while (!inFlight.isEmpty()) {
            limit.release(inFlight.pollFirst(), Outcome.CONGESTED);
        }
        assertEquals(9, limit.limit());

        for (int i = 0; i < 20; i++) {
            Permit permit = limit.tryAcquire().orElseThrow();
            limit.release(permit, Outcome.CONGESTED);
        }
        assertEquals(1, limit.limit(), "never below one");
        assertTrue(limit.tryAcquire().isPresent(), "one write still goes out, to find the destination back");
    }

    @Test
    void groupRefusalsNeitherLowerTheLimitNorBecomeTheBaseline() {
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 3, 10);
        int before = limit.limit();

        // active groups, type conflicts, a missing ACL: answered at once, without writing the log
        for (int r = 0; r < 20; r++) {
            advanceMillis(1);
            int round = inFlight.size();
            for (int i = 0; i < round; i++) {
                limit.release(inFlight.pollFirst(), Outcome.NEUTRAL);
                fill(limit);
            }
        }
        assertEquals(before, limit.limit());

        // had the 1 ms refusals become the baseline, 10 ms writes would now look congested
        backlog(limit, 3, 10);
        assertTrue(limit.limit() > before, "still rising: " + limit.limit());
    }

    @Test
    void theBaselineFollowsADestinationThatBecameSlowerForGood() {
        WriteConcurrencyLimit limit = limit(16);
        backlog(limit, 40, 5);
        assertEquals(16, limit.limit());

        // now 300 ms away (failed over to another continent): first that looks like queueing
        backlog(limit, 20, 300);
        int fallen = limit.limit();
        assertTrue(fallen <= 6, "lowered: " + fallen);

        // after two baseline windows the 5 ms answers are forgotten: 300 ms is the destination unloaded
        backlog(limit, (int) (2 * WriteConcurrencyLimit.BASELINE_WINDOW_SECONDS * 1_000 / 300) + 1, 300);
        assertTrue(limit.limit() > fallen, "rising again: " + limit.limit());
    }

    @Test
    void aPermitIsReleasedOnce() {
        WriteConcurrencyLimit limit = limit(4);
        Permit permit = limit.tryAcquire().orElseThrow();
        limit.release(permit, Outcome.ANSWERED);
        assertThrows(IllegalStateException.class, () -> limit.release(permit, Outcome.ANSWERED));
        assertEquals(0, limit.inFlight());
    }

    @Test
    void staysWithinBoundsUnderConcurrentUse() {
        WriteConcurrencyLimit limit = new WriteConcurrencyLimit(8, System::nanoTime);
        Outcome[] outcomes = Outcome.values();
        List<CompletableFuture<Void>> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 20_000; i++) {
                    Optional<Permit> permit = limit.tryAcquire();
                    if (permit.isPresent()) {
                        int inFlightNow = limit.inFlight();
                        if (inFlightNow > 8) {
                            throw new AssertionError("in flight past the ceiling: " + inFlightNow);
                        }
                        limit.release(permit.get(), outcomes[(i + seed) % outcomes.length]);
                    }
                }
            }));
        }
        threads.forEach(CompletableFuture::join);
        assertEquals(0, limit.inFlight());
        assertTrue(limit.limit() >= 1 && limit.limit() <= 8, "limit " + limit.limit());
    }
}
