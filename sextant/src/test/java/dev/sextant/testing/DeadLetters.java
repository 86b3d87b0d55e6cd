package dev.sextant.testing;

import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import dev.sextant.domain.Reason;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Waits for records on the dead-letter topic of the local source cluster. */
public final class DeadLetters {

    private DeadLetters() {
    }

    /** The first record of {@code group} with {@code reason}, waiting for it up to {@code timeout}. */
    public static DeadLetterRecord await(LocalClusters clusters, String group, Reason reason, Duration timeout) {
        return await(clusters, r -> group.equals(r.group()) && r.reason() == reason,
                reason + " dead letter for " + group, timeout);
    }

    /** As {@link #await(LocalClusters, String, Reason, Duration)}, on a source cluster of the test's own. */
    public static DeadLetterRecord await(LocalKafkaBroker source, String group, Reason reason, Duration timeout) {
        return await(source, r -> group.equals(r.group()) && r.reason() == reason,
                reason + " dead letter for " + group, timeout);
    }

    /** The first record that matches, waiting for it up to {@code timeout}. */
    public static DeadLetterRecord await(LocalClusters clusters, Predicate<DeadLetterRecord> wanted, String what,
                                         Duration timeout) {
        return await(clusters.source(), wanted, what, timeout);
    }

    private static DeadLetterRecord await(LocalKafkaBroker source, Predicate<DeadLetterRecord> wanted, String what,
                                          Duration timeout) {
        try (DeadLetterReader reader =
                     new DeadLetterReader(source.clientProperties(), "sextant.conflicts")) {
            List<DeadLetterRecord> seen = new ArrayList<>(reader.readToEnd(Duration.ofSeconds(10)));
            return Await.value(timeout, what, () -> {
                seen.addAll(reader.poll(Duration.ofMillis(100)));
                return seen.stream().filter(wanted).findFirst().orElse(null);
            });
        }
    }
}
