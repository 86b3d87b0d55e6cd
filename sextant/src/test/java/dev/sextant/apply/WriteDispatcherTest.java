package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sextant.apply.WriteConcurrencyLimit.Outcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class WriteDispatcherTest {

    /** A write as the fake writer received it: which writer, and the answer the test gives when it likes. */
    private record Sent(String writer, String write, CompletableFuture<String> answer) {
    }

    private final AtomicLong nanos = new AtomicLong();
    private final WriteConcurrencyLimit limit = new WriteConcurrencyLimit(16, nanos::get);
    private final AtomicInteger writersMade = new AtomicInteger();
    private final List<Sent> sent = new ArrayList<>();
    private final WriteDispatcher<String> dispatcher = new WriteDispatcher<>(limit,
            () -> "writer-" + writersMade.getAndIncrement(),
            err -> err instanceof TimeoutException ? Outcome.CONGESTED : Outcome.NEUTRAL, nanos::get);

    private CompletableFuture<String> submit(String write) {
        return submit(write, WriteLease.ALWAYS);
    }

    private CompletableFuture<String> submit(String write, WriteLease lease) {
        return dispatcher.submit(lease, writer -> {
            CompletableFuture<String> answer = new CompletableFuture<>();
            sent.add(new Sent(writer, write, answer));
            return answer;
        });
    }

    private List<String> sentWrites() {
        return sent.stream().map(Sent::write).toList();
    }

    @Test
    void sendsUpToTheLimitEachThroughAnIdleWriterAndQueuesTheRestInOrder() throws Exception {
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            results.add(submit("g" + i));
        }
        assertEquals(List.of("g0", "g1", "g2", "g3"), sentWrites(), "the limit starts at 4");
        assertEquals(4, new HashSet<>(sent.stream().map(Sent::writer).toList()).size(), "one write per writer");
        assertEquals(3, dispatcher.queued());
        assertEquals(4, limit.inFlight());

        sent.get(2).answer().complete("ok g2");
        assertEquals("ok g2", results.get(2).get());
        assertEquals(List.of("g0", "g1", "g2", "g3", "g4"), sentWrites(), "the next in line, at once");
        assertEquals(sent.get(2).writer(), sent.get(4).writer(), "through the writer that just became idle");
        assertEquals(4, writersMade.get(), "no writer made while one is idle");
        assertFalse(results.get(5).isDone() || results.get(6).isDone(), "still queued");
    }

    @Test
    void aNewCommitsWriteGoesBeforeReplansQueuedEarlierUntilTheyWaitedPastTheirEscape() {
        WriteLease replan = WriteLease.replan(WriteLease.ALWAYS);
        for (int i = 0; i < 4; i++) {
            submit("busy" + i);
        }
        submit("replan-a", replan);
        submit("replan-b", replan);
        submit("commit-c");
        submit("commit-d");

        sent.get(0).answer().complete("ok");
        sent.get(1).answer().complete("ok");
        assertEquals(List.of("commit-c", "commit-d"), sentWrites().subList(4, 6), "new commits first");
        sent.get(2).answer().complete("ok");
        assertEquals("replan-a", sentWrites().get(6), "re-plans once no new commit waits");

        submit("replan-e", replan);
        submit("commit-f");
        nanos.addAndGet(WriteDispatcher.REPLAN_ESCAPE_NANOS);
        sent.get(3).answer().complete("ok");
        assertEquals("replan-b", sentWrites().get(7), "a re-plan that waited past its escape goes first");
    }

    @Test
    void makesWritersOnlyAsTheyAreNeeded() {
        for (int i = 0; i < 50; i++) {
            submit("g" + i);
            sent.get(i).answer().complete("ok");
        }
        assertEquals(50, sent.size());
        assertEquals(1, writersMade.get(), "one write at a time needs one writer");
    }

    @Test
    void aWriteWhoseLeaseRanOutWhileQueuedIsNotSent() throws Exception {
        for (int i = 0; i < 4; i++) {
            submit("g" + i);
        }
        AtomicBoolean valid = new AtomicBoolean(true);
        CompletableFuture<String> late = submit("late", valid::get);
        CompletableFuture<String> next = submit("next");
        assertEquals(2, dispatcher.queued());

        valid.set(false); // the task was revoked while its write waited
        sent.get(0).answer().complete("ok");

        ExecutionException failed = assertThrows(ExecutionException.class, late::get);
        assertInstanceOf(WriteLeaseExpiredException.class, failed.getCause());
        assertEquals(List.of("g0", "g1", "g2", "g3", "next"), sentWrites(), "never sent; the next one takes its slot");
        assertEquals(4, limit.inFlight());
        assertFalse(next.isDone());
    }

    @Test
    void transientFailuresSendFewerAtOnce() {
        for (int i = 0; i < 10; i++) {
            submit("g" + i);
        }
        assertEquals(4, limit.inFlight());
        nanos.addAndGet(30_000_000_000L);
        sent.get(0).answer().completeExceptionally(new TimeoutException("timed out"));
        assertEquals(3, limit.limit());
        assertEquals(3, limit.inFlight(), "nothing sent in the freed slot: the limit went down");
        assertEquals(4, sent.size());

        // an answer about the group: not the destination's load
        sent.get(1).answer().completeExceptionally(new GroupNotEmptyException("x"));
        assertEquals(3, limit.limit());
        assertEquals(5, sent.size(), "its slot goes to the next write");
    }

    @Test
    void closingFailsTheQueuedWritesAndRefusesNewOnes() throws Exception {
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            results.add(submit("g" + i));
        }
        dispatcher.close();

        for (int i = 4; i < 6; i++) {
            ExecutionException failed = assertThrows(ExecutionException.class,
                    results.get(i)::get);
            assertInstanceOf(IllegalStateException.class, failed.getCause());
        }
        assertInstanceOf(IllegalStateException.class, assertThrows(
                ExecutionException.class, () -> submit("after").get()).getCause());

        // in flight: completes as its writer answers (or fails while it closes); nothing more is sent
        sent.get(0).answer().complete("ok");
        assertEquals("ok", results.get(0).get());
        assertEquals(4, sent.size());
        assertEquals(0, dispatcher.queued());
    }

    @Test
    void aWriterThatCannotBeMadeFailsOnlyThatWrite() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        WriteDispatcher<String> flaky = new WriteDispatcher<>(limit, () -> {
            if (broken.getAndSet(false)) {
                throw new KafkaException("Failed to create new KafkaAdminClient");
            }
            return "writer";
        }, err -> Outcome.NEUTRAL);
        CompletableFuture<String> first = flaky.submit(WriteLease.ALWAYS, w -> CompletableFuture.completedFuture(w));
        CompletableFuture<String> second = flaky.submit(WriteLease.ALWAYS, w -> CompletableFuture.completedFuture(w));

        assertInstanceOf(KafkaException.class,
                assertThrows(ExecutionException.class, first::get).getCause());
        assertEquals("writer", second.get());
        assertEquals(0, limit.inFlight(), "the failed write gave its permit back");
    }

    @Test
    void aLongQueueOfWritesAnsweredAtOnceDrainsWithoutRecursing() throws Exception {
        for (int i = 0; i < 4; i++) {
            submit("g" + i);
        }
        int queued = 100_000;
        AtomicInteger answered = new AtomicInteger();
        CompletableFuture<String> last = null;
        for (int i = 0; i < queued; i++) {
            // answered on the calling thread, as an in-memory destination would
            last = dispatcher.submit(WriteLease.ALWAYS, w -> {
                answered.incrementAndGet();
                return CompletableFuture.completedFuture("ok");
            });
        }
        assertEquals(queued, dispatcher.queued());

        sent.get(0).answer().complete("ok"); // the whole queue goes through the freed slot, on this thread
        assertEquals("ok", last.get());
        assertEquals(queued, answered.get());
        assertEquals(3, limit.inFlight());
    }
}
