package dev.sextant;

import dev.sextant.acl.AccessDenials;
import dev.sextant.acl.SourceRefusal;
import dev.sextant.metrics.SextantMetrics;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the Kafka Streams client: a stream thread that dies is replaced (and counted, for liveness), except on a
 * refusal by the source's authorizer, which a new thread would meet too: then the client stops, naming the ACL to
 * grant. Tells {@link #awaitStop()} when the client stopped, and why.
 */
final class StreamsSupervisor implements StreamsUncaughtExceptionHandler, KafkaStreams.StateListener {

    private static final Logger log = LoggerFactory.getLogger(StreamsSupervisor.class);

    private final SourceRefusal refusal;
    private final StreamThreadFailures threadFailures;
    private final SextantMetrics metrics;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Throwable failure;

    StreamsSupervisor(SourceRefusal refusal, StreamThreadFailures threadFailures, SextantMetrics metrics) {
        this.refusal = refusal;
        this.threadFailures = threadFailures;
        this.metrics = metrics;
    }

    @Override
    public StreamThreadExceptionResponse handle(Throwable e) {
        Optional<AuthorizationException> denied = AccessDenials.authorization(e);
        if (denied.isPresent()) {
            failure = refusal.refused("Kafka Streams was refused on the source cluster", denied.get(), e);
            log.error(failure.getMessage());
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        log.error("Stream thread failed; replacing it", e);
        threadFailures.failed(e);
        metrics.streamThreadReplaced();
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    @Override
    public void onChange(KafkaStreams.State now, KafkaStreams.State before) {
        log.info("Kafka Streams {} -> {}", before, now);
        if (now == KafkaStreams.State.ERROR) {
            if (failure == null) {
                failure = new IllegalStateException("Kafka Streams entered state ERROR");
            }
            stopped.countDown();
        } else if (now == KafkaStreams.State.NOT_RUNNING) {
            stopped.countDown();
        }
    }

    /** The instance stops without the client having run (closed before start, or the start failed). */
    void stoppedAnyway() {
        stopped.countDown();
    }

    /** Blocks until the client stops; returns the failure that stopped it, or null. */
    Throwable awaitStop() throws InterruptedException {
        stopped.await();
        return failure;
    }
}
