package dev.sextant.decode;

import static dev.sextant.decode.Bytes.append;
import static dev.sextant.decode.Bytes.hex;
import static dev.sextant.decode.Bytes.key;
import static dev.sextant.decode.Bytes.value;
import static dev.sextant.decode.Bytes.withVersion;
import static dev.sextant.decode.ConsumerOffsetsMessages.classicKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.classicValue;
import static dev.sextant.decode.ConsumerOffsetsMessages.commitKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.commitValue;
import static dev.sextant.decode.ConsumerOffsetsMessages.consumerGroupKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.legacyCommitKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.legacyCommitValue;
import static dev.sextant.decode.ConsumerOffsetsMessages.shareGroupKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.shareGroupTopicsKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.shareGroupTopicsValue;
import static dev.sextant.decode.ConsumerOffsetsMessages.simpleGroupValue;
import static dev.sextant.decode.ConsumerOffsetsMessages.streamsGroupKey;
import static dev.sextant.decode.ConsumerOffsetsMessages.streamsGroupValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.decode.ConsumerOffsetsRecord.GroupDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupMemberRecord;
import dev.sextant.decode.ConsumerOffsetsRecord.GroupTypeSeen;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetCommit;
import dev.sextant.decode.ConsumerOffsetsRecord.OffsetDeleted;
import dev.sextant.decode.ConsumerOffsetsRecord.ShareGroupTopics;
import dev.sextant.decode.UndecodableRecordException.Problem;
import dev.sextant.testing.CoordinatorRecords;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsumerOffsetsDecoderTest {

    /**
     * Bytes as Kafka 4.4.0's own serializer writes them (docs/kafka-internals.md): type 1, group "g1", topic "t",
     * partition 3.
     */
    private static final String RECORDED_KEY = "0001 0002 6731 0001 74 00000003";

    private static UndecodableRecordException undecodable(byte[] key, byte[] value) {
        return assertThrows(UndecodableRecordException.class, () -> ConsumerOffsetsDecoder.decode(key, value));
    }

    // ---- offset commits ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void offsetCommitEveryValueVersion(int version) throws Exception {
        ConsumerOffsetsRecord r = ConsumerOffsetsDecoder.decode(key(commitKey()), value(version, commitValue()));

        int expectedEpoch = version >= 3 ? 7 : -1; // leaderEpoch exists from v3
        assertEquals(new OffsetCommit("g1", "t", 3, 42, expectedEpoch, "m", 1000), r);
    }

    @Test
    void offsetCommitV1CarriesExpireTimestampAndStillDecodes() throws Exception {
        byte[] v1 = value(1, commitValue());
        byte[] v0 = value(0, commitValue());
        assertEquals(v0.length + Long.BYTES, v1.length, "v1 adds the int64 expireTimestamp");

        assertEquals(new OffsetCommit("g1", "t", 3, 42, -1, "m", 1000),
                ConsumerOffsetsDecoder.decode(key(commitKey()), v1));
    }

    @Test
    void recordedByteVectorsMatchKafkaWritersAndDecode() throws Exception {
        byte[] recordedValue = hex("0004 000000000000002a 00000007 026d 00000000000003e8 01 00 10 "
                + "00000000000000000000000000000001");

        assertArrayEquals(hex(RECORDED_KEY), key(commitKey()));
        assertArrayEquals(recordedValue, value(4, commitValue().setExpireTimestamp(-1)));
        assertEquals(new OffsetCommit("g1", "t", 3, 42, 7, "m", 1000),
                ConsumerOffsetsDecoder.decode(hex(RECORDED_KEY), recordedValue));
    }

    @Test
    void legacyOffsetCommit() throws Exception {
        byte[] k = legacyCommitKey("g", "orders", 0);
        byte[] v = legacyCommitValue(9, "", 77);
        assertEquals(0, k[1], "legacy type id");

        assertEquals(new OffsetCommit("g", "orders", 0, 9, -1, "", 77), ConsumerOffsetsDecoder.decode(k, v));
    }

    @Test
    void offsetTombstones() throws Exception {
        assertEquals(new OffsetDeleted("g1", "t", 3), ConsumerOffsetsDecoder.decode(hex(RECORDED_KEY), null));
        byte[] legacy = legacyCommitKey("g", "t", 1);
        assertEquals(new OffsetDeleted("g", "t", 1), ConsumerOffsetsDecoder.decode(legacy, null));
    }

    // ---- group-defining records --------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void classicGroupMetadataKeepsProtocolType(int version) throws Exception {
        byte[] k = classicKey("cg");
        for (String protocolType : List.of("consumer", "", "connect")) {
            assertEquals(new GroupTypeSeen("cg", GroupType.CLASSIC, protocolType),
                    ConsumerOffsetsDecoder.decode(k, value(version, classicValue(protocolType))));
        }
    }

    @Test
    void simpleGroupWithoutMembers() throws Exception {
        assertEquals(new GroupTypeSeen("s", GroupType.CLASSIC, ""),
                ConsumerOffsetsDecoder.decode(classicKey("s"), value(3, simpleGroupValue())));
    }

    @Test
    void modernGroupMetadataRevealsKind() throws Exception {
        KeyValue<byte[], byte[]> consumer = CoordinatorRecords.consumerGroup("c");
        assertEquals(new GroupTypeSeen("c", GroupType.CONSUMER, "consumer"),
                ConsumerOffsetsDecoder.decode(consumer.key, consumer.value));
        KeyValue<byte[], byte[]> share = CoordinatorRecords.shareGroup("s");
        assertEquals(new GroupTypeSeen("s", GroupType.SHARE, "share"),
                ConsumerOffsetsDecoder.decode(share.key, share.value));
        assertEquals(new GroupTypeSeen("st", GroupType.STREAMS, "streams"),
                ConsumerOffsetsDecoder.decode(streamsGroupKey("st"), streamsGroupValue()));
    }

    @Test
    void groupDefiningTombstonesAreGroupDeletes() throws Exception {
        assertEquals(new GroupDeleted("cg", GroupType.CLASSIC), ConsumerOffsetsDecoder.decode(classicKey("cg"), null));
        assertEquals(new GroupDeleted("c", GroupType.CONSUMER),
                ConsumerOffsetsDecoder.decode(consumerGroupKey("c"), null));
        assertEquals(new GroupDeleted("s", GroupType.SHARE), ConsumerOffsetsDecoder.decode(shareGroupKey("s"), null));
        assertEquals(new GroupDeleted("st", GroupType.STREAMS),
                ConsumerOffsetsDecoder.decode(streamsGroupKey("st"), null));
    }

    // ---- share group topics ------------------------------------------------------------------------------------

    @Test
    void shareGroupTopicsNameInitializingAndInitializedButNotDeletingTopics() throws Exception {
        Uuid initializing = Uuid.randomUuid();
        Uuid initialized = Uuid.randomUuid();
        Uuid deleting = Uuid.randomUuid();
        byte[] v = shareGroupTopicsValue(Map.of(initializing, "new"), Map.of(initialized, "orders"),
                Map.of(deleting, "old"));

        ConsumerOffsetsRecord r = ConsumerOffsetsDecoder.decode(shareGroupTopicsKey("sg"), v);

        assertEquals(new ShareGroupTopics("sg", Map.of(initializing, "new", initialized, "orders")), r);
    }

    @Test
    void shareGroupTopicsTombstoneIsEmptyMap() throws Exception {
        assertEquals(new ShareGroupTopics("sg", Map.of()),
                ConsumerOffsetsDecoder.decode(shareGroupTopicsKey("sg"), null));
    }

    // ---- every other known type --------------------------------------------------------------------------------

    /** Independent of the decoder's own table: docs/kafka-internals.md, "__consumer_offsets records". */
    private static final Map<Integer, GroupType> MEMBER_TYPES = Map.ofEntries(
            Map.entry(4, GroupType.CONSUMER), Map.entry(5, GroupType.CONSUMER), Map.entry(6, GroupType.CONSUMER),
            Map.entry(7, GroupType.CONSUMER), Map.entry(8, GroupType.CONSUMER), Map.entry(16, GroupType.CONSUMER),
            Map.entry(10, GroupType.SHARE), Map.entry(12, GroupType.SHARE), Map.entry(13, GroupType.SHARE),
            Map.entry(14, GroupType.SHARE),
            Map.entry(19, GroupType.STREAMS), Map.entry(20, GroupType.STREAMS), Map.entry(21, GroupType.STREAMS),
            Map.entry(22, GroupType.STREAMS), Map.entry(23, GroupType.STREAMS));

    /** A Kafka-built key of this type for group "grp" (test-only reflection: the key classes share no interface). */
    private static byte[] keyOf(CoordinatorRecordType type) throws Exception {
        ApiMessage k = type.newRecordKey();
        for (String setter : List.of("setGroupId", "setGroup")) {
            try {
                k.getClass().getMethod(setter, String.class).invoke(k, "grp");
            } catch (NoSuchMethodException ignored) {
                // the other spelling
            }
        }
        return key(k);
    }

    @Test
    void everyOtherKnownTypeIsAGroupMemberRecordOfTheRightKind() throws Exception {
        List<Integer> seen = new ArrayList<>();
        for (CoordinatorRecordType type : CoordinatorRecordType.values()) {
            GroupType kind = MEMBER_TYPES.get((int) type.id());
            if (kind == null) {
                continue;
            }
            seen.add((int) type.id());
            byte[] k = keyOf(type);
            byte[] v = value(0, type.newRecordValue());
            assertEquals(new GroupMemberRecord("grp", kind), ConsumerOffsetsDecoder.decode(k, v), type.name());
            assertEquals(new GroupMemberRecord("grp", kind), ConsumerOffsetsDecoder.decode(k, null), type.name());
        }
        assertEquals(MEMBER_TYPES.size(), seen.size(), "every member type exists in Kafka 4.4.0: " + seen);
    }

    @Test
    void everyTypeKafkaDefinesIsDecoded() throws Exception {
        for (CoordinatorRecordType type : CoordinatorRecordType.values()) {
            ApiMessage v = type.newRecordValue();
            if (v instanceof GroupMetadataValue g) {
                g.setProtocol(null).setLeader(null);
            }
            byte[] k = keyOf(type);
            assertEquals("grp", ConsumerOffsetsDecoder.decode(k, value(type.highestSupportedVersion(), v)).group(),
                    type.name());
            assertEquals("grp", ConsumerOffsetsDecoder.decode(k, null).group(), type.name());
        }
    }

    // ---- negative ----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {9, 18, 24, 99, -1, Short.MAX_VALUE})
    void unknownTypes(int typeId) {
        byte[] k = hex(RECORDED_KEY);
        k[0] = (byte) (typeId >> 8);
        k[1] = (byte) typeId;
        UndecodableRecordException e = undecodable(k, value(4, commitValue()));
        assertEquals(Problem.UNKNOWN_TYPE, e.problem());
        assertTrue(e.reason().contains(String.valueOf(typeId)), e.reason());
        assertEquals(Problem.UNKNOWN_TYPE, undecodable(k, null).problem());
    }

    @Test
    void unknownValueVersions() throws Exception {
        UndecodableRecordException e = undecodable(hex(RECORDED_KEY), withVersion(value(4, commitValue()), 5));
        assertEquals(Problem.UNKNOWN_VERSION, e.problem());
        assertEquals(Optional.of("g1"), e.group());
        assertEquals(Problem.UNKNOWN_VERSION,
                undecodable(hex(RECORDED_KEY), withVersion(value(4, commitValue()), -1)).problem());

        KeyValue<byte[], byte[]> consumer = CoordinatorRecords.consumerGroup("c");
        assertEquals(Problem.UNKNOWN_VERSION, undecodable(consumer.key, withVersion(consumer.value, 1)).problem());

        // the version is checked even where the value itself is not decoded
        byte[] memberKey = keyOf(CoordinatorRecordType.CONSUMER_GROUP_MEMBER_METADATA);
        byte[] memberValue = value(0, CoordinatorRecordType.CONSUMER_GROUP_MEMBER_METADATA.newRecordValue());
        UndecodableRecordException member = undecodable(memberKey, withVersion(memberValue, 1));
        assertEquals(Problem.UNKNOWN_VERSION, member.problem());
        assertEquals(Optional.of("grp"), member.group());
    }

    @Test
    void shortKeys() {
        assertEquals(Problem.MALFORMED, undecodable(null, null).problem());
        assertEquals(Problem.MALFORMED, undecodable(new byte[0], null).problem());
        assertEquals(Problem.MALFORMED, undecodable(new byte[] {0}, value(4, commitValue())).problem());
    }

    @Test
    void everyTruncatedKeyOrValueIsMalformed() throws Exception {
        byte[] k = key(commitKey());
        byte[] v = value(4, commitValue());
        for (int n = 0; n < k.length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(Arrays.copyOf(k, n), v).problem(), "key prefix " + n);
        }
        for (int n = 0; n < v.length; n++) {
            UndecodableRecordException e = undecodable(k, Arrays.copyOf(v, n));
            assertEquals(Problem.MALFORMED, e.problem(), "value prefix " + n);
            assertEquals(Optional.of("g1"), e.group());
        }
        byte[] classic = value(3, classicValue("consumer"));
        for (int n = 0; n < classic.length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(classicKey("cg"), Arrays.copyOf(classic, n)).problem());
        }
    }

    @Test
    void trailingBytesAreMalformed() {
        assertEquals(Problem.MALFORMED, undecodable(append(key(commitKey()), 0), null).problem());
        assertEquals(Problem.MALFORMED, undecodable(key(commitKey()), append(value(3, commitValue()), 0)).problem());
    }

    @Test
    void nullStringAndNegativePartitionAreMalformed() {
        assertEquals(Problem.MALFORMED, undecodable(hex("0001 ffff"), null).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex("0001 0002 6731 0001 74 ffffffff"), null).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex("0001 0002 6731 7fff 74 00000003"), null).problem());
    }

    @Test
    void garbageNeverEscapesAsAnotherException() {
        Random random = new Random(20261129);
        List<byte[]> validKeys = List.of(key(commitKey()), classicKey("cg"));
        List<byte[]> validValues = List.of(value(4, commitValue()), value(1, commitValue()),
                value(4, classicValue("consumer")), value(0, classicValue("")));
        for (int i = 0; i < 50_000; i++) {
            byte[] k = randomBytes(random, 24);
            if (random.nextBoolean()) {
                k = Arrays.copyOf(k, Math.max(k.length, 2));
                k[0] = 0;
                k[1] = (byte) random.nextInt(25); // mostly known type ids, to reach the readers
            }
            byte[] v = random.nextInt(8) == 0 ? null : randomBytes(random, 64);
            if (v != null && v.length >= 2 && random.nextBoolean()) {
                v[0] = 0;
                v[1] = (byte) random.nextInt(5);
            }
            decodeOrUndecodable(k, v);
            // bit flips in valid encodings
            byte[] validKey = validKeys.get(random.nextInt(validKeys.size()));
            byte[] validValue = validValues.get(random.nextInt(validValues.size()));
            decodeOrUndecodable(flip(random, validKey), validValue);
            decodeOrUndecodable(validKey, flip(random, validValue));
        }
    }

    private static void decodeOrUndecodable(byte[] k, byte[] v) {
        try {
            assertNotNull(ConsumerOffsetsDecoder.decode(k, v));
        } catch (UndecodableRecordException e) {
            assertNotNull(e.reason());
            assertNotNull(e.problem());
        }
    }

    static byte[] randomBytes(Random random, int maxLength) {
        byte[] b = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(b);
        return b;
    }

    static byte[] flip(Random random, byte[] bytes) {
        byte[] copy = bytes.clone();
        int flips = 1 + random.nextInt(3);
        for (int i = 0; i < flips; i++) {
            copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return copy;
    }
}
