package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.deadletter.DeadLetterSerde;
import dev.sextant.domain.Reason;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.sync.SyncSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class StreamsErrorHandlersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SyncSettings settings = TestSettings.settings();
    private final Map<String, Object> configs = StreamsErrorHandlers.configs(settings, new SextantMetrics(registry));

    private static ErrorHandlerContext at(String topic) {
        return new ErrorHandlerContext() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partition() {
                return 3;
            }

            @Override
            public long offset() {
                return 42;
            }

            @Override
            public Headers headers() {
                return new RecordHeaders();
            }

            @Override
            public String processorNodeId() {
                return "group-sync-processor";
            }

            @Override
            public TaskId taskId() {
                return new TaskId(0, 3);
            }

            @Override
            public long timestamp() {
                return 0;
            }

            @Override
            public byte[] sourceRawKey() {
                return null;
            }

            @Override
            public byte[] sourceRawValue() {
                return null;
            }
        };
    }

    @Test
    void aProcessorThatThrowsSkipsTheRecordAndDeadLettersIt() {
        StreamsErrorHandlers.Processing handler = new StreamsErrorHandlers.Processing();
        handler.configure(configs);

        ProcessingExceptionHandler.Response response = handler.handleError(at("__consumer_offsets"),
                new Record<>(new byte[1], new byte[1], 0L), new IllegalStateException("boom"));

        assertEquals(ProcessingExceptionHandler.Result.RESUME, response.result());
        List<ProducerRecord<byte[], byte[]>> dead = response.deadLetterQueueRecords();
        assertEquals(1, dead.size());
        assertEquals("sextant.conflicts", dead.get(0).topic());
        DeadLetterRecord record = new DeadLetterSerde().deserializer().deserialize("sextant.conflicts",
                dead.get(0).value());
        assertEquals(Reason.UNDECODABLE, record.reason());
        assertTrue(record.detail().contains("__consumer_offsets-3@42") && record.detail().contains("boom"),
                record.detail());
        assertEquals(1.0, registry.get("sextant.streams.errors").tag("where", "processing").counter().count());

        // a processor failing on every record of a flood: counted each time, dead-lettered once a minute
        for (int i = 0; i < 100; i++) {
            ProcessingExceptionHandler.Response again = handler.handleError(at("__consumer_offsets"),
                    new Record<>(new byte[1], new byte[1], 0L), new IllegalStateException("boom " + i));
            assertEquals(ProcessingExceptionHandler.Result.RESUME, again.result());
            assertEquals(List.of(), again.deadLetterQueueRecords());
        }
        assertEquals(101.0, registry.get("sextant.streams.errors").tag("where", "processing").counter().count());
    }

    @Test
    void onTheGlobalThreadItIsOnlyLoggedAndCounted() {
        StreamsErrorHandlers.Processing handler = new StreamsErrorHandlers.Processing();
        handler.configure(configs);

        ProcessingExceptionHandler.Response response = handler.handleError(at(settings.historyTopic()),
                new Record<>(new byte[1], new byte[1], 0L), new IllegalStateException("boom"));

        assertEquals(ProcessingExceptionHandler.Result.RESUME, response.result());
        assertEquals(List.of(), response.deadLetterQueueRecords());
    }

    @Test
    void aRecordThatCanNeverBeWrittenIsDroppedAndCountedRetriableErrorsAreRetried() {
        StreamsErrorHandlers.Production handler = new StreamsErrorHandlers.Production();
        handler.configure(configs);
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("sextant.conflicts", new byte[10]);

        assertEquals(ProductionExceptionHandler.Result.RETRY,
                handler.handleError(at("x"), record, new NotEnoughReplicasException("later")).result());
        assertEquals(ProductionExceptionHandler.Result.RESUME,
                handler.handleError(at("x"), record, new RecordTooLargeException("too big")).result());
        assertEquals(ProductionExceptionHandler.Result.RESUME,
                handler.handleError(at("x"), record, new TopicAuthorizationException("no ACL")).result());
        assertEquals(2.0, registry.get("sextant.streams.errors").tag("where", "production").counters().stream()
                .mapToDouble(c -> c.count()).sum());
    }
}
