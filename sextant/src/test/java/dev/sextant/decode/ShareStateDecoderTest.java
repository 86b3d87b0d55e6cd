package dev.sextant.decode;

import static dev.sextant.decode.Bytes.append;
import static dev.sextant.decode.Bytes.hex;
import static dev.sextant.decode.Bytes.key;
import static dev.sextant.decode.Bytes.value;
import static dev.sextant.decode.Bytes.withVersion;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.decode.ShareStateRecord.ShareSnapshot;
import dev.sextant.decode.ShareStateRecord.ShareStateDeleted;
import dev.sextant.decode.ShareStateRecord.ShareUpdate;
import dev.sextant.decode.UndecodableRecordException.Problem;
import dev.sextant.domain.StateBatch;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShareStateDecoderTest {

    private static final Uuid TOPIC_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"); // 0x00..01

    private static byte[] snapshotKey() {
        return key(new ShareSnapshotKey().setGroupId("sg").setTopicId(TOPIC_ID).setPartition(0));
    }

    private static byte[] updateKey() {
        return key(new ShareUpdateKey().setGroupId("sg").setTopicId(TOPIC_ID).setPartition(2));
    }

    private static ShareSnapshotValue snapshotValue() {
        return new ShareSnapshotValue().setSnapshotEpoch(1).setStateEpoch(4).setLeaderEpoch(0).setStartOffset(10)
                .setDeliveryCompleteCount(20).setCreateTimestamp(1).setWriteTimestamp(2)
                .setStateBatches(List.of(
                        new ShareSnapshotValue.StateBatch().setFirstOffset(10).setLastOffset(19)
                                .setDeliveryState((byte) 2).setDeliveryCount((short) 1),
                        new ShareSnapshotValue.StateBatch().setFirstOffset(20).setLastOffset(29)
                                .setDeliveryState((byte) 0).setDeliveryCount((short) 3)));
    }

    private static UndecodableRecordException undecodable(byte[] key, byte[] value) {
        return assertThrows(UndecodableRecordException.class, () -> ShareStateDecoder.decode(key, value));
    }

    @Test
    void recordedKeyBytesMatchKafkaWriter() {
        assertArrayEquals(hex("0000 0002 7367 00000000000000000000000000000001 00000000"), snapshotKey());
    }

    @Test
    void snapshotWithBatches() throws Exception {
        assertEquals(new ShareSnapshot("sg", TOPIC_ID, 0, 1, 4, 0, 10, List.of(
                        new StateBatch(10, 19, (byte) 2, (short) 1),
                        new StateBatch(20, 29, (byte) 0, (short) 3))),
                ShareStateDecoder.decode(snapshotKey(), value(0, snapshotValue())));
    }

    @Test
    void snapshotWithoutTaggedFieldOrBatches() throws Exception {
        ShareSnapshotValue initialized = new ShareSnapshotValue().setSnapshotEpoch(0).setStateEpoch(1)
                .setLeaderEpoch(-1).setStartOffset(5).setCreateTimestamp(1).setWriteTimestamp(1)
                .setStateBatches(List.of());
        assertEquals(new ShareSnapshot("sg", TOPIC_ID, 0, 0, 1, -1, 5, List.of()),
                ShareStateDecoder.decode(snapshotKey(), value(0, initialized)));
    }

    @Test
    void updateWithUnchangedStartOffset() throws Exception {
        ShareUpdateValue v = new ShareUpdateValue().setSnapshotEpoch(1).setLeaderEpoch(0)
                .setStartOffset(ShareUpdate.START_OFFSET_UNCHANGED).setDeliveryCompleteCount(20)
                .setStateBatches(List.of(new ShareUpdateValue.StateBatch().setFirstOffset(10).setLastOffset(29)
                        .setDeliveryState((byte) 4).setDeliveryCount((short) 5)));

        ShareStateRecord r = ShareStateDecoder.decode(updateKey(), value(0, v));

        assertEquals(new ShareUpdate("sg", TOPIC_ID, 2, 1, 0, -1,
                List.of(new StateBatch(10, 29, (byte) 4, (short) 5))), r);
    }

    @Test
    void tombstonesOfBothKeyTypes() throws Exception {
        assertEquals(new ShareStateDeleted("sg", TOPIC_ID, 0), ShareStateDecoder.decode(snapshotKey(), null));
        assertEquals(new ShareStateDeleted("sg", TOPIC_ID, 2), ShareStateDecoder.decode(updateKey(), null));
    }

    @Test
    void stateBatchHelpers() {
        StateBatch available = new StateBatch(0, 0, StateBatch.AVAILABLE, (short) 1);
        StateBatch acked = new StateBatch(0, 0, (byte) 2, (short) 1);
        StateBatch archived = new StateBatch(0, 0, (byte) 4, (short) 1);
        StateBatch acquired = new StateBatch(0, 0, (byte) 1, (short) 1);

        assertFalse(available.isComplete());
        assertFalse(acquired.isComplete());
        assertTrue(acked.isAcknowledged());
        assertFalse(acked.isArchived());
        assertTrue(acked.isComplete());
        assertTrue(archived.isArchived());
        assertFalse(archived.isAcknowledged());
        assertTrue(archived.isComplete());
    }

    @Test
    void recordsAreImmutable() throws Exception {
        ShareSnapshot s = (ShareSnapshot) ShareStateDecoder.decode(snapshotKey(), value(0, snapshotValue()));
        assertThrows(UnsupportedOperationException.class, () -> s.stateBatches().clear());
    }

    // ---- negative ----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {2, 3, -1, 99})
    void unknownTypes(int typeId) {
        byte[] k = snapshotKey();
        k[0] = (byte) (typeId >> 8);
        k[1] = (byte) typeId;
        assertEquals(Problem.UNKNOWN_TYPE, undecodable(k, value(0, snapshotValue())).problem());
    }

    @Test
    void unknownValueVersion() {
        UndecodableRecordException e = undecodable(snapshotKey(), withVersion(value(0, snapshotValue()), 1));
        assertEquals(Problem.UNKNOWN_VERSION, e.problem());
        assertEquals(Optional.of("sg"), e.group());
    }

    @Test
    void everyTruncationIsMalformed() {
        byte[] k = snapshotKey();
        byte[] v = value(0, snapshotValue());
        for (int n = 0; n < k.length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(Arrays.copyOf(k, n), v).problem(), "key prefix " + n);
        }
        for (int n = 0; n < v.length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(k, Arrays.copyOf(v, n)).problem(), "value prefix " + n);
        }
        assertEquals(Problem.MALFORMED, undecodable(k, append(v, 0)).problem());
        assertEquals(Problem.MALFORMED, undecodable(null, v).problem());
    }

    @Test
    void negativePartitionIsMalformed() {
        byte[] k = snapshotKey();
        k[k.length - 1] = (byte) 0xff;
        k[k.length - 4] = (byte) 0xff;
        assertEquals(Problem.MALFORMED, undecodable(k, null).problem());
    }

    @Test
    void garbageNeverEscapesAsAnotherException() {
        Random random = new Random(932);
        byte[] validKey = snapshotKey();
        byte[] validValue = value(0, snapshotValue());
        for (int i = 0; i < 50_000; i++) {
            byte[] k = ConsumerOffsetsDecoderTest.randomBytes(random, 40);
            if (k.length >= 2 && random.nextBoolean()) {
                k[0] = 0;
                k[1] = (byte) random.nextInt(2);
            }
            byte[] v = random.nextInt(8) == 0 ? null : ConsumerOffsetsDecoderTest.randomBytes(random, 80);
            if (v != null && v.length >= 2 && random.nextBoolean()) {
                v[0] = 0;
                v[1] = 0;
            }
            decodeOrUndecodable(k, v);
            decodeOrUndecodable(ConsumerOffsetsDecoderTest.flip(random, validKey), validValue);
            decodeOrUndecodable(validKey, ConsumerOffsetsDecoderTest.flip(random, validValue));
        }
    }

    private static void decodeOrUndecodable(byte[] k, byte[] v) {
        try {
            assertNotNull(ShareStateDecoder.decode(k, v));
        } catch (UndecodableRecordException e) {
            assertNotNull(e.reason());
        }
    }
}
