package dev.sextant.topology;

import dev.sextant.decode.UndecodableRecordException;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.Cutovers;
import dev.sextant.sync.SyncSettings;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the global cutovers store from Sextant's cutovers topic and the instance's {@link Cutovers} from the
 * store: a record cuts its group over, a tombstone gives it back to the sync. The only writer of both.
 *
 * <p>A record that is not a cutover record is counted and skipped, as in the offset-sync history: the global thread
 * must survive anything the topic holds.
 */
final class CutoverUpdater implements Processor<Bytes, byte[], Void, Void> {

    private static final Logger log = LoggerFactory.getLogger(CutoverUpdater.class);

    private final Cutovers cutovers;
    private final SyncSettings settings;
    private final UndecodableRecords undecodable;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<Bytes, byte[]> store;

    CutoverUpdater(Cutovers cutovers, SyncSettings settings, UndecodableRecords undecodable) {
        this.cutovers = cutovers;
        this.settings = settings;
        this.undecodable = undecodable;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        store = context.getStateStore(Cutovers.STORE);
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            all.forEachRemaining(entry -> take(entry.key, entry.value));
        }
    }

    @Override
    public void process(Record<Bytes, byte[]> record) {
        if (record.key() == null) {
            skip("a record without a key");
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
            cutovers.remove(new String(record.key().get(), StandardCharsets.UTF_8));
            return;
        }
        if (take(record.key(), record.value())) {
            store.put(record.key(), record.value());
        }
    }

    /** True when the value is a cutover record of the key's group, now in {@link Cutovers}. */
    private boolean take(Bytes key, byte[] value) {
        try {
            CutoverRecord cut = CutoverRecord.fromBytes(value);
            String group = new String(key.get(), StandardCharsets.UTF_8);
            if (!cut.group().equals(group)) {
                skip("the record of group '" + cut.group() + "' under the key '" + group + "'");
                return false;
            }
            cutovers.put(cut);
            return true;
        } catch (IllegalArgumentException e) {
            skip(e.getMessage());
            return false;
        }
    }

    private void skip(String problem) {
        String where = context == null ? "?" : TopologyNames.where(context.recordMetadata());
        undecodable.report(settings.cutoversTopic(), where,
                        UndecodableRecordException.malformed(null, problem, null), null)
                .ifPresent(dead -> log.warn("Skipped a record of the cutovers topic: {}", dead.detail()));
    }
}
