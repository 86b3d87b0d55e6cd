package dev.sextant.topology;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.deadletter.DeadLetterThrottle;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.sync.SyncSettings;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' last line of defence, so that one record never costs a stream thread: the processors guard every
 * decode themselves, and what still throws is handled here.
 *
 * <ul>
 *   <li>{@link Processing}: a processor threw on a record. It is logged, counted ({@code sextant.streams.errors}) and
 *       skipped; for a task's record an {@code UNDECODABLE} dead-letter record names it. (A stream thread that died
 *       would be replaced and meet the same record again: a crash loop.)</li>
 *   <li>{@link Production}: a record could not be written. Retriable errors are retried, as Kafka Streams would; a
 *       non-retriable one (a dead-letter record too large for the topic, a missing ACL) is logged, counted and the
 *       record dropped: positions live in the stores, not in those records.</li>
 * </ul>
 *
 * Kafka Streams creates them from class names and hands them its configuration: {@link #configs} puts what they need
 * there.
 */
public final class StreamsErrorHandlers {

    private static final Logger log = LoggerFactory.getLogger(StreamsErrorHandlers.class);
    static final String METRICS = "sextant.internal.metrics";
    static final String DLQ_TOPIC = "sextant.internal.dlq.topic";
    static final String INSTANCE = "sextant.internal.instance";
    static final String GLOBAL_TOPIC = "sextant.internal.global.topic";

    private StreamsErrorHandlers() {
    }

    /** The Kafka Streams settings that install both handlers. */
    public static Map<String, Object> configs(SyncSettings settings, SextantMetrics metrics) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, Processing.class);
        configs.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, Production.class);
        configs.put(METRICS, metrics);
        configs.put(DLQ_TOPIC, settings.dlqTopic());
        configs.put(INSTANCE, settings.instance());
        configs.put(GLOBAL_TOPIC, settings.historyTopic());
        return configs;
    }

    private static SextantMetrics metricsOf(Map<String, ?> configs) {
        return configs.get(METRICS) instanceof SextantMetrics m ? m : null;
    }

    /** Logs, counts and skips a record a processor threw on; dead-letters it when it came from a task. */
    public static final class Processing implements ProcessingExceptionHandler {

        private final DeadLetterSerde serde = new DeadLetterSerde();
        /** A processor failing on every record of a flood writes one dead letter a minute per input and kind. */
        private final DeadLetterThrottle throttle = new DeadLetterThrottle();
        private SextantMetrics metrics;
        private String dlqTopic;
        private String instance;
        private String globalTopic;

        @Override
        public void configure(Map<String, ?> configs) {
            metrics = metricsOf(configs);
            dlqTopic = (String) configs.get(DLQ_TOPIC);
            instance = (String) configs.get(INSTANCE);
            globalTopic = (String) configs.get(GLOBAL_TOPIC);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
            String where = context.topic() + "-" + context.partition() + "@" + context.offset();
            log.error("Processor {} failed on the record at {}; skipped it", context.processorNodeId(), where,
                    exception);
            if (metrics != null) {
                metrics.streamsError("processing", exception.getClass().getSimpleName());
            }
            // the global thread has no producer: a record of the history topic is logged and counted only
            if (dlqTopic == null || context.topic() == null || context.topic().equals(globalTopic)) {
                return Response.resume();
            }
            long now = Clock.systemUTC().millis();
            Optional<String> admitted = throttle.admit(context.topic() + "-" + context.partition() + "/"
                    + context.processorNodeId() + "/" + exception.getClass().getName(), now);
            if (admitted.isEmpty()) {
                return Response.resume(); // counted above; one like it was dead-lettered less than a minute ago
            }
            DeadLetterRecord dead = new DeadLetterRecord(null, null, Reason.UNDECODABLE, List.of(),
                    "processing the record at " + where + " failed (" + context.processorNodeId() + "): "
                            + exception + admitted.get(), null, now, instance);
            return Response.resume(List.of(new ProducerRecord<>(dlqTopic, null, (byte[]) null,
                    serde.serializer().serialize(dlqTopic, dead))));
        }
    }

    /** Retries what Kafka retries; logs, counts and drops a record that can never be written. */
    public static final class Production implements ProductionExceptionHandler {

        private SextantMetrics metrics;

        @Override
        public void configure(Map<String, ?> configs) {
            metrics = metricsOf(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                    Exception exception) {
            if (exception instanceof RetriableException) {
                return Response.retry();
            }
            log.error("Cannot write a record to {} ({} bytes, key {}); dropped it", record.topic(),
                    record.value() == null ? 0 : record.value().length,
                    record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8), exception);
            if (metrics != null) {
                metrics.streamsError("production", exception.getClass().getSimpleName());
            }
            return Response.resume();
        }

        @Override
        public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record,
                                                 Exception exception, SerializationExceptionOrigin origin) {
            log.error("Cannot serialize a record for {}; dropped it", record.topic(), exception);
            if (metrics != null) {
                metrics.streamsError("serialization", exception.getClass().getSimpleName());
            }
            return Response.resume();
        }
    }
}
