package dev.sextant.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The integration tests' check of a {@code sextant run} stop can fail. */
class StopLogTest {

    private static final String STARTED = "10:00:00.000 INFO  [main] dev.sextant.SextantApplication - Sextant started";
    private static final String STOPPING = "10:00:01.000 INFO  [sextant-shutdown] dev.sextant.SextantApplication - "
            + "Stopping Sextant";
    private static final String STOPPED = "10:00:02.000 INFO  [sextant-shutdown] dev.sextant.SextantApplication - "
            + "Sextant stopped in 1000 ms";

    @Test
    void aStopThatBeganEndedAndLoggedNoExceptionIsQuiet() {
        assertEquals(List.of(), StopLog.problems(List.of(STARTED,
                "10:00:00.500 WARN  [main] o.a.k.c.NetworkClient - before the stop: not its business",
                "java.io.IOException: gone",
                "\tat org.apache.kafka.Some.call(Some.java:1)",
                STOPPING,
                "10:00:01.500 WARN  [kafka-admin-client-thread] o.a.k.c.NetworkClient - Node 1 disconnected.",
                "10:00:01.600 INFO  [sextant-shutdown] o.a.k.s.KafkaStreams - an exception at INFO",
                "org.apache.kafka.common.errors.DisconnectException: null",
                "\tat org.apache.kafka.Some.call(Some.java:1)",
                STOPPED)));
    }

    @Test
    void anExceptionOutOfTheShutdownHookOrLoggedAtWarnIsNot() {
        String thrown = "Exception in thread \"sextant-shutdown\" java.util.ConcurrentModificationException: "
                + "KafkaConsumer is not safe for multi-threaded access";
        assertEquals(List.of(thrown), StopLog.problems(List.of(STOPPING, thrown,
                "\tat org.apache.kafka.clients.consumer.internals.ClassicKafkaConsumer.acquire(x.java:1)",
                STOPPED)));

        String warned = "10:00:01.500 WARN  [sextant-shutdown] dev.sextant.history.IntervalProofs - cannot close";
        assertEquals(List.of(warned), StopLog.problems(List.of(STOPPING, warned,
                "java.util.ConcurrentModificationException: KafkaConsumer is not safe for multi-threaded access",
                "\tat org.apache.kafka.clients.consumer.internals.ClassicKafkaConsumer.acquire(x.java:1)",
                "\tat org.apache.kafka.clients.consumer.KafkaConsumer.close(x.java:2)",
                STOPPED)));

        String failed = "sextant: KafkaConsumer is not safe for multi-threaded access";
        assertEquals(List.of(failed), StopLog.problems(List.of(STOPPING, STOPPED, failed)));
    }

    @Test
    void jsonLinesWithAThrowableAtWarnAreNotQuiet() {
        String json = "{\"level\":\"ERROR\",\"loggerName\":\"dev.sextant.X\",\"formattedMessage\":\"failed\","
                + "\"throwable\":{\"className\":\"java.lang.IllegalStateException\"}}";
        assertEquals(List.of(json), StopLog.problems(List.of(
                "{\"level\":\"INFO\",\"formattedMessage\":\"Stopping Sextant\",\"throwable\":null}", json,
                "{\"level\":\"INFO\",\"formattedMessage\":\"Sextant stopped in 5 ms\",\"throwable\":null}")));
    }

    @Test
    void aStopThatNeverBeganOrNeverEndedIsNotComplete() {
        assertEquals(1, StopLog.problems(List.of(STARTED)).size());
        assertEquals(1, StopLog.problems(List.of(STARTED, STOPPING)).size());
    }
}
