package dev.sextant.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.config.SextantConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which source topics the offset syncs and the destination's topics name as mirrored (the reading is in an IT). */
class MirroredSourceTopicsTest {

    private static SextantConfig config(String... extra) {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        for (int i = 0; i < extra.length; i += 2) {
            props.put(extra[i], extra[i + 1]);
        }
        return new SextantConfig(props);
    }

    @Test
    void aDestinationTopicIsAMirrorWhenThePolicyNamesItOneFromThisSource() {
        SextantConfig config = config("source.alias", "east");
        assertEquals(Optional.of("orders"), MirroredSourceTopics.mirrorOf(config, "east.orders"));
        assertEquals(Optional.of("east.orders"), MirroredSourceTopics.mirrorOf(config, "east.east.orders"));
        assertEquals(Optional.empty(), MirroredSourceTopics.mirrorOf(config, "west.orders"), "another source's");
        assertEquals(Optional.empty(), MirroredSourceTopics.mirrorOf(config, "orders"), "the destination's own");

        SextantConfig separator = config("source.alias", "east", "replication.policy.separator", "_");
        assertEquals(Optional.of("orders"), MirroredSourceTopics.mirrorOf(separator, "east_orders"));
        assertEquals(Optional.empty(), MirroredSourceTopics.mirrorOf(separator, "east.orders"));
    }

    @Test
    void theSyncsAndTheMirrorsNameTheTopicsSextantSyncs() {
        SextantConfig config = config("topics.exclude", "audit.*");
        assertEquals(List.of("audit-log", "orders", "payments", "shipping"), List.copyOf(MirroredSourceTopics.combine(
                config("topics.exclude", "none"), Set.of("orders", "payments"),
                Set.of("source.payments", "source.shipping", "source.audit-log", "local", "other.x"),
                Optional.empty())));
        assertEquals(List.of("orders", "payments", "shipping"), List.copyOf(MirroredSourceTopics.combine(config,
                Set.of("orders", "payments"), Set.of("source.shipping", "source.audit-log"), Optional.empty())),
                "topics.exclude");
        assertEquals(List.of("orders"), List.copyOf(MirroredSourceTopics.combine(config(), Set.of("orders", "gone"),
                Set.of("source.__consumer_offsets", "source.x.internal", "source.y", "source.__x"),
                Optional.of(Set.of("orders", "__consumer_offsets", "x.internal", "local", "__x")))),
                "what the source no longer has, internal topics and MirrorMaker 2's are not read");
    }

    /**
     * With the identity policy a destination topic has its source topic's name, and so has every topic of the
     * destination's own: only the source's own list tells them apart.
     */
    @Test
    void withTheIdentityPolicyOnlyTopicsTheSourceHasAreMirrors() {
        SextantConfig identity = config("replication.policy", "identity");
        assertEquals(List.of("orders"), List.copyOf(MirroredSourceTopics.combine(identity, Set.of("orders"),
                Set.of("payments", "local"), Optional.empty())));
        assertEquals(List.of("orders", "payments"), List.copyOf(MirroredSourceTopics.combine(identity,
                Set.of("orders"), Set.of("payments", "local"), Optional.of(Set.of("orders", "payments")))));
    }
}
