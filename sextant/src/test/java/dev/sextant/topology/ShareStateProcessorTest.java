package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.metrics.SextantMetrics;
import dev.sextant.state.InMemoryStores;
import dev.sextant.state.SharePosition;
import dev.sextant.state.ShareStateKeys;
import dev.sextant.sync.SyncSettings;
import dev.sextant.testing.CoordinatorRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class ShareStateProcessorTest {

    private static final Uuid ORDERS = Uuid.randomUuid();
    private final SyncSettings settings = TestSettings.settings();
    private final SextantMetrics metrics = new SextantMetrics(new SimpleMeterRegistry());
    private final KeyValueStore<Bytes, byte[]> states = InMemoryStores.bytesStore(ShareStateKeys.STORE);

    @SafeVarargs
    private List<Long> run(KeyValue<byte[], byte[]>... records) throws Exception {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        context.addStateStore(states);
        ShareStateProcessor processor = new ShareStateProcessor(settings, metrics,
                new UndecodableRecords(settings, metrics));
        processor.init(context);
        for (KeyValue<byte[], byte[]> kv : records) {
            processor.process(new Record<>(kv.key, kv.value, 0L));
        }
        List<Long> sent = new ArrayList<>();
        for (MockProcessorContext.CapturedForward<?, ?> f : context.forwarded()) {
            if (TopologyNames.SHARE_POSITIONS_SINK.equals(f.childName().orElse(null))) {
                sent.add(SharePosition.fromBytes("shipping", (byte[]) f.record().value()).offset());
            }
        }
        return sent;
    }

    @Test
    void afterARestartAPositionIsSentAgainEvenIfTheStoreSaysItWasSent() throws Exception {
        KeyValue<byte[], byte[]> snapshot = CoordinatorRecords.shareSnapshot("shipping", ORDERS, 0, 10);
        assertEquals(List.of(10L), run(snapshot, snapshot), "sent once while the task runs");
        // the task restarts on the kept store and reads the record again (its input offset was not committed): the
        // record sent before the crash may be lost, so it is sent again
        assertEquals(List.of(10L), run(snapshot));
    }
}
