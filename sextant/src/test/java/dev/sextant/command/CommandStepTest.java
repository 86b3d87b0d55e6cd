package dev.sextant.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.sextant.command.CommandStep.Cluster;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class CommandStepTest {

    private final SextantConfig config = SextantConfigLoader.load(new HashMap<>(Map.of(
            "source.bootstrap.servers", "a-1:9092,a-2:9092", "destination.bootstrap.servers", "b-1:9092",
            "application.id", "sextant-step")), Map.of());

    @Test
    void aKafkaFailureNamesTheClusterItsBootstrapAndTheStep() {
        CommandStep step = new CommandStep(config);
        step.reading(Cluster.SOURCE, "read the groups cut over so far");
        TimeoutException cause = new TimeoutException("Timeout expired while fetching topic metadata");

        RuntimeException named = step.named(cause);

        assertEquals("reading the source cluster (bootstrap a-1:9092,a-2:9092) to read the groups cut over so far: "
                + "Timeout expired while fetching topic metadata", named.getMessage());
        assertSame(cause, named.getCause());
    }

    @Test
    void theLastStepIsNamedAndAWriteSaysSo() {
        CommandStep step = new CommandStep(config);
        step.reading(Cluster.SOURCE, "fence the groups");
        step.writing(Cluster.DESTINATION, "record the group");

        assertEquals("writing to the destination cluster (bootstrap b-1:9092) to record the group: refused",
                step.named(new IllegalStateException("refused")).getMessage());
    }

    @Test
    void authorizationErrorsOtherFailuresAndFailuresBeforeTheFirstStepAreHandedBackAsTheyAre() {
        CommandStep step = new CommandStep(config);
        IllegalStateException early = new IllegalStateException("before any cluster");
        assertSame(early, step.named(early));

        step.reading(Cluster.SOURCE, "read the groups");
        GroupAuthorizationException denied = new GroupAuthorizationException("denied");
        assertSame(denied, step.named(denied), "kept: the command maps it to exit 3 naming the ACL");
        IllegalArgumentException bug = new IllegalArgumentException("a bug, not a cluster");
        assertSame(bug, step.named(bug));
    }
}
