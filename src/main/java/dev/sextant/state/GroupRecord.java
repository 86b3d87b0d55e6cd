package dev.sextant.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.deadletter.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What Sextant knows of a source group as a whole.
 *
 * @param type         the sync phase the group belongs to
 * @param protocolType for classic groups, the protocol type of the source group ("consumer", "" for simple groups)
 * @param openReason   the dead-letter reason last reported for the group and not cleared since, or null; a new
 *                     dead-letter record is written only when this changes, so the topic stays readable
 */
public record GroupRecord(GroupType type, String protocolType, Reason openReason) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static GroupRecord of(GroupType type) {
        return new GroupRecord(type, null, null);
    }

    public GroupRecord withReason(Reason reason) {
        return new GroupRecord(type, protocolType, reason);
    }

    public byte[] toBytes() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static GroupRecord fromBytes(byte[] raw) {
        try {
            return JSON.readValue(raw, GroupRecord.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
