package dev.sextant.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * Two threads stopping one thing at once, as {@code sextant run} does on SIGTERM: its shutdown hook, and its main
 * thread woken by the Streams client's stop.
 */
public final class TwoStops {

    private TwoStops() {
    }

    /**
     * Runs {@code stop} on two threads released together; returns what they threw once both ended. Fails when either
     * is still stopping after {@code bound}.
     */
    public static List<Throwable> run(Runnable stop, Duration bound) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (String name : List.of("shutdown-hook", "main-thread")) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    stop.run();
                } catch (Throwable t) {
                    thrown.add(t);
                }
            }, name);
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        long deadline = System.nanoTime() + bound.toNanos();
        for (Thread thread : threads) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " still stopping after " + bound);
            }
        }
        return List.copyOf(thrown);
    }
}
