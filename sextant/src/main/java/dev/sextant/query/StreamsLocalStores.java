package dev.sextant.query;

import dev.sextant.domain.LogRange;
import dev.sextant.state.CatchingUpPartitions;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.Cutovers;
import dev.sextant.state.GroupRecord;
import dev.sextant.state.GroupStore;
import dev.sextant.state.OffsetSyncStore;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStore;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.IntervalEvidence;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link LocalStores} over Kafka Streams' interactive queries. Group reads name the task's partition
 * ({@link StoreQueryParameters#withPartition}), so a task that moved away between routing and reading fails the read
 * (503) instead of answering from nothing.
 */
public final class StreamsLocalStores implements LocalStores {

    private final Supplier<KafkaStreams> streams;
    private final UnaryOperator<String> destinationTopic;
    private final boolean identity;
    private final IntervalEvidence evidence;
    private final CatchingUpPartitions catchingUp;
    private final BiFunction<String, Integer, LogRange> destinationLogs;
    private final Cutovers cutovers;

    /**
     * @param destinationTopic the replication policy: source topic to its mirror's name
     * @param identity         true with {@code translation=identity} (no offset-sync history store)
     */
    public StreamsLocalStores(Supplier<KafkaStreams> streams, UnaryOperator<String> destinationTopic,
                              boolean identity) {
        this(streams, destinationTopic, identity, new CatchingUpPartitions(), IntervalEvidence.NONE);
    }

    /**
     * @param catchingUp the partitions whose task here has not read its input up to where it started yet
     * @param evidence   what translation may take as proof of an interval between offset syncs
     */
    public StreamsLocalStores(Supplier<KafkaStreams> streams, UnaryOperator<String> destinationTopic,
                              boolean identity, CatchingUpPartitions catchingUp, IntervalEvidence evidence) {
        this(streams, destinationTopic, identity, catchingUp, new Cutovers(), evidence, GroupViews.NO_LOGS);
    }

    /**
     * @param destinationLogs each destination partition's log as this instance last read it (its destination view),
     *                        by mirror topic and partition: served offsets are kept inside it
     * @param cutovers        the groups cut over to the destination, as this instance read them
     */
    public StreamsLocalStores(Supplier<KafkaStreams> streams, UnaryOperator<String> destinationTopic,
                              boolean identity, CatchingUpPartitions catchingUp, Cutovers cutovers,
                              IntervalEvidence evidence, BiFunction<String, Integer, LogRange> destinationLogs) {
        this.cutovers = cutovers;
        this.destinationLogs = destinationLogs;
        this.evidence = evidence;
        this.streams = streams;
        this.destinationTopic = destinationTopic;
        this.identity = identity;
        this.catchingUp = catchingUp;
    }

    @Override
    public Optional<Views.GroupOffsets> offsets(String group, int partition) {
        return group(group, partition).map(detail -> GroupViews.offsets(detail, destinationLogs));
    }

    @Override
    public Optional<Views.GroupDetail> group(String group, int partition) {
        return read(() -> {
            GroupRecord record = groupStore(partition).get(group);
            List<Map.Entry<PositionKey, PartitionPosition>> positions = positionStore(partition).group(group);
            if (record == null && positions.isEmpty()) {
                if (catchingUp.catchingUp(partition)) {
                    // the previous owner may have read the group's commits after its last Streams commit
                    throw QueryException.unavailable("partition " + partition + " of __consumer_offsets was just "
                            + "taken over by this instance, which is still reading it; retry");
                }
                return Optional.empty();
            }
            return Optional.of(GroupViews.detail(group, record, positions, destinationTopic, cutovers.of(group)));
        });
    }

    @Override
    public List<Views.GroupSummary> groups(int partition) {
        return read(() -> {
            Map<String, GroupRecord> records = new TreeMap<>();
            groupStore(partition).forEach(records::put);
            Map<String, List<PartitionPosition>> positions = new TreeMap<>();
            positionStore(partition).forEach((key, pos) ->
                    positions.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(pos));
            TreeMap<String, Boolean> names = new TreeMap<>();
            records.keySet().forEach(g -> names.put(g, true));
            positions.keySet().forEach(g -> names.put(g, true));
            List<Views.GroupSummary> out = new ArrayList<>();
            for (String group : names.keySet()) {
                out.add(GroupViews.summary(group, records.get(group), positions.getOrDefault(group, List.of()),
                        cutovers.cutOver(group)));
            }
            return out;
        });
    }

    @Override
    public Set<String> cutOverGroups() {
        return cutovers.all().stream().map(CutoverRecord::group).collect(Collectors.toCollection(TreeSet::new));
    }

    @Override
    public Optional<Views.TranslationView> translate(String topic, int partition, long offset) {
        return read(() -> {
            OffsetTranslator translator = identity ? new IdentityTranslator()
                    : new OffsetSyncTranslator(OffsetSyncStore.reader(historyStore()), evidence);
            Optional<OffsetTranslation> translation = translator.translate(topic, partition, offset);
            return translation.map(t -> new Views.TranslationView(topic, partition, offset,
                    destinationTopic.apply(topic), t.destinationOffset(), t.precision().label(), t.bound()));
        });
    }

    private GroupStore groupStore(int partition) {
        return GroupStore.readOnly(client().store(StoreQueryParameters.fromNameAndType(GroupStore.NAME,
                QueryableStoreTypes.<String, byte[]>keyValueStore()).withPartition(partition)));
    }

    private PositionStore positionStore(int partition) {
        return PositionStore.readOnly(client().store(StoreQueryParameters.fromNameAndType(PositionStore.NAME,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore()).withPartition(partition)));
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> historyStore() {
        return client().store(StoreQueryParameters.fromNameAndType(OffsetSyncStore.NAME,
                QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
    }

    private KafkaStreams client() {
        KafkaStreams client = streams.get();
        if (client == null) {
            throw QueryException.unavailable("Kafka Streams is not started yet; retry");
        }
        return client;
    }

    private static <T> T read(Supplier<T> read) {
        try {
            return read.get();
        } catch (InvalidStateStoreException e) {
            throw QueryException.unavailable("state store not queryable right now (" + e.getMessage()
                    + "); retry", e);
        }
    }
}
