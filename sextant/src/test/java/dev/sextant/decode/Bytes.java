package dev.sextant.decode;

import java.util.Arrays;
import java.util.HexFormat;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;

/** Builds record bytes the way Kafka's CoordinatorRecordSerde does, with Kafka's own writers. */
final class Bytes {

    private Bytes() {
    }

    /** int16 type id (the key's apiKey) + key fields at version 0. */
    static byte[] key(ApiMessage key) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(key);
    }

    /** int16 version + value fields at that version. */
    static byte[] value(int version, Message value) {
        return MessageUtil.toVersionPrefixedBytes((short) version, value);
    }

    /** Hex with optional spaces, e.g. {@code "0001 0002 6731"}. */
    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static byte[] withVersion(byte[] value, int version) {
        byte[] copy = value.clone();
        copy[0] = (byte) (version >> 8);
        copy[1] = (byte) version;
        return copy;
    }

    static byte[] append(byte[] bytes, int extra) {
        byte[] copy = Arrays.copyOf(bytes, bytes.length + 1);
        copy[bytes.length] = (byte) extra;
        return copy;
    }
}
