package dev.sextant.cutover;

import dev.sextant.client.SextantClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether every running instance holds a group cut over (or given back), as {@code GET /v1/cutovers} reports it: a
 * pure verdict. The sync of each instance reads the cutovers topic on its own global thread; a group is cut over
 * only once every one of them holds it, so a task that moves (a rebalance, a rolling restart) lands on an instance
 * that already knows. An instance that does not answer, or a release that cannot say (no {@code /v1/cutovers}),
 * is not known to hold it: the cutover waits, then fails naming it.
 */
final class EveryInstanceHolds {

    private EveryInstanceHolds() {
    }

    /**
     * @param cutOver true to ask whether every instance holds the group cut over, false whether none does
     * @return what is not so yet (instances named, with why), or empty when every instance agrees
     */
    static Optional<String> missing(List<SextantClient.InstanceCutovers> instances, String group, boolean cutOver) {
        List<String> missing = new ArrayList<>();
        for (SextantClient.InstanceCutovers instance : instances) {
            if (instance.groups() == null) {
                missing.add("instance " + instance.address() + " did not say (" + instance.problem() + ")");
            } else if (instance.groups().contains(group) != cutOver) {
                missing.add("instance " + instance.address() + (cutOver ? " does not hold it cut over yet"
                        : " still holds it cut over"));
            }
        }
        if (instances.isEmpty()) {
            missing.add("no instance listed");
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", missing));
    }
}
