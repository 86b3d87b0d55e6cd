package dev.sextant.apply;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** One phase of the apply: writes positions of one group type on the destination, asynchronously. */
public interface GroupApplier {

    /** Applies every plan; {@code done} is called exactly once per group, on an Admin thread. */
    void apply(Map<String, List<PlannedPartition>> plans, Consumer<GroupOutcome> done);
}
