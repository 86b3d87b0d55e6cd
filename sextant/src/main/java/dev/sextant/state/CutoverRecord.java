package dev.sextant.state;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A group cut over to the destination by {@code sextant cutover --apply}: from then on the sync never moves it from
 * the source again. The value of the group's key on Sextant's cutovers topic ({@code <application.id>-cutovers}, on the
 * source cluster, compacted); a tombstone ({@code cutover --undo --apply}) gives the group back to the sync.
 *
 * @param groupType     {@code consumer}, {@code streams} or {@code share}
 * @param cutAt         when the cutover was recorded (the command's clock, epoch ms)
 * @param fenceMs       how long the source offsets were watched without a change before it was recorded
 * @param sourceCluster the source cluster's id, or null when it could not be read
 * @param partitions    where the group stood when it was cut over: its last source commit and what the destination
 *                      holds for it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CutoverRecord(String group, String groupType, long cutAt, long fenceMs, String sourceCluster,
                            List<Partition> partitions) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One partition as it was cut over.
     *
     * @param bound replay bound of the destination offset (0: exact), or null when the sync did not say
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Partition(String topic, int partition, long sourceOffset, String destinationTopic,
                            long destinationOffset, String precision, Long bound) {
    }

    public CutoverRecord {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }

    /** The record's key on the cutovers topic. */
    public static byte[] key(String group) {
        return group.getBytes(StandardCharsets.UTF_8);
    }

    public byte[] toBytes() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the cutover record of group " + group, e);
        }
    }

    /** @throws IllegalArgumentException when the bytes are not a cutover record */
    public static CutoverRecord fromBytes(byte[] bytes) {
        try {
            CutoverRecord record = JSON.readValue(bytes, CutoverRecord.class);
            if (record.group() == null || record.group().isEmpty()) {
                throw new IllegalArgumentException("a cutover record without a group");
            }
            return record;
        } catch (IOException e) {
            throw new IllegalArgumentException("not a cutover record: "
                    + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }
}
