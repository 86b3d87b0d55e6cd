package dev.sextant.query;

import dev.sextant.deadletter.DeadLetterRecord;
import java.util.List;

/** Recent dead-letter records, for {@code GET /v1/conflicts}. */
public interface ConflictSource {

    /**
     * @param group only this group's records, or null for all
     * @param limit at most this many, the newest ones
     * @return oldest first, newest last
     */
    List<DeadLetterRecord> recent(String group, int limit);
}
