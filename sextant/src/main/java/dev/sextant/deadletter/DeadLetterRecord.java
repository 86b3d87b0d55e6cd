package dev.sextant.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.sextant.domain.Reason;
import java.util.List;

/**
 * The value of a record on the dead-letter topic (key: the group id). The field names are a public contract:
 * scripts and the {@code conflicts} command read them.
 *
 * @param sourceCommitTimestamp broker time of the newest source commit involved, or null when not known
 * @param detectedAt            when this instance saw the condition (epoch millis)
 * @param instance              the instance that saw it (its advertised query address)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record DeadLetterRecord(String group, String groupType, Reason reason, List<PartitionDetail> partitions,
                               String detail, Long sourceCommitTimestamp, long detectedAt, String instance) {

    /** One partition concerned; offsets are null where not known. */
    public record PartitionDetail(String topic, int partition, Long sourceOffset, Long translatedOffset,
                                  Long destinationOffset) {
    }
}
