package dev.sextant.decode;

import static dev.sextant.decode.Bytes.append;
import static dev.sextant.decode.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sextant.decode.UndecodableRecordException.Problem;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Struct;
import org.apache.kafka.common.protocol.types.Type;
import org.junit.jupiter.api.Test;

class OffsetSyncDecoderTest {

    /** "orders", partition 3. */
    private static final String KEY = "0006 6f7264657273 00000003";
    /** upstream 100, downstream 200. */
    private static final String VALUE = "0000000000000064 00000000000000c8";

    // Same definitions as connect-mirror's OffsetSync.KEY_SCHEMA / VALUE_SCHEMA (4.3.1), built from kafka-clients.
    private static final Schema KEY_SCHEMA = new Schema(
            new Field("topic", Type.STRING), new Field("partition", Type.INT32));
    private static final Schema VALUE_SCHEMA = new Schema(
            new Field("upstreamOffset", Type.INT64), new Field("offset", Type.INT64));

    private static UndecodableRecordException undecodable(byte[] key, byte[] value) {
        return assertThrows(UndecodableRecordException.class, () -> OffsetSyncDecoder.decode(key, value));
    }

    @Test
    void handWrittenBytes() throws Exception {
        OffsetSync sync = OffsetSyncDecoder.decode(hex(KEY), hex(VALUE));

        assertEquals(new OffsetSync("orders", 3, 100, 200), sync);
        assertEquals(new TopicPartition("orders", 3), sync.topicPartition());
    }

    @Test
    void sameBytesAsMirrorMakersSchemas() throws Exception {
        byte[] key = write(KEY_SCHEMA, new Struct(KEY_SCHEMA).set("topic", "orders").set("partition", 3));
        byte[] value = write(VALUE_SCHEMA, new Struct(VALUE_SCHEMA).set("upstreamOffset", 100L).set("offset", 200L));
        assertArrayEquals(hex(KEY), key);
        assertArrayEquals(hex(VALUE), value);

        byte[] utf8Key = write(KEY_SCHEMA, new Struct(KEY_SCHEMA).set("topic", "tøpic.ü").set("partition", 0));
        byte[] big = write(VALUE_SCHEMA, new Struct(VALUE_SCHEMA).set("upstreamOffset", Long.MAX_VALUE - 1)
                .set("offset", 0L));
        assertEquals(new OffsetSync("tøpic.ü", 0, Long.MAX_VALUE - 1, 0), OffsetSyncDecoder.decode(utf8Key, big));
    }

    @Test
    void trailingBytesAreIgnoredLikeMirrorMakerDoes() throws Exception {
        assertEquals(new OffsetSync("orders", 3, 100, 200),
                OffsetSyncDecoder.decode(append(hex(KEY), 1), append(hex(VALUE), 2)));
    }

    @Test
    void undecodable() {
        assertEquals(Problem.MALFORMED, undecodable(null, hex(VALUE)).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex(KEY), null).problem());
        assertEquals(Problem.MALFORMED, undecodable(new byte[0], hex(VALUE)).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex("ffff 00000003"), hex(VALUE)).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex("0010 6f72 00000003"), hex(VALUE)).problem());
        assertEquals(Problem.MALFORMED, undecodable(hex("0006 6f7264657273 ffffffff"), hex(VALUE)).problem());
        for (int n = 0; n < hex(KEY).length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(Arrays.copyOf(hex(KEY), n), hex(VALUE)).problem());
        }
        for (int n = 0; n < hex(VALUE).length; n++) {
            assertEquals(Problem.MALFORMED, undecodable(hex(KEY), Arrays.copyOf(hex(VALUE), n)).problem());
        }
    }

    @Test
    void garbageNeverEscapesAsAnotherException() {
        Random random = new Random(6);
        for (int i = 0; i < 100_000; i++) {
            byte[] k = ConsumerOffsetsDecoderTest.randomBytes(random, 20);
            byte[] v = ConsumerOffsetsDecoderTest.randomBytes(random, 20);
            try {
                assertNotNull(OffsetSyncDecoder.decode(k, v));
            } catch (UndecodableRecordException e) {
                assertNotNull(e.reason());
            }
        }
    }

    private static byte[] write(Schema schema, Struct struct) {
        ByteBuffer buffer = ByteBuffer.allocate(schema.sizeOf(struct));
        schema.write(buffer, struct);
        return buffer.array();
    }
}
