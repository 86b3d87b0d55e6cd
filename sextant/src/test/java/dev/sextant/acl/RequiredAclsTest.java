package dev.sextant.acl;

import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.acl.RequiredAcl.Cluster;
import dev.sextant.config.SextantConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * Read on the source's topics, which {@code translation.interpolation=verified} uses to prove intervals between
 * offset syncs: on the mirrored topics only by default, on every topic as the wider, chosen grant.
 */
class RequiredAclsTest {

    /** The source topics Sextant reads whatever the choice: its inputs and its own topics. */
    private static final Set<String> OWN_TOPICS = Set.of("__consumer_offsets", "__share_group_state",
            "mm2-offset-syncs.destination.internal", "sextant.conflicts", "sextant-");

    private static final SourceTopicReads MIRRORED = SourceTopicReads.only(List.of(
            SourceTopicReads.literal("orders"), SourceTopicReads.prefixed("payments.")), "named in the test");

    private static SextantConfig config(String... extra) {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        for (int i = 0; i < extra.length; i += 2) {
            props.put(extra[i], extra[i + 1]);
        }
        return new SextantConfig(props);
    }

    /** The source's topic ACLs other than those on Sextant's own topics. */
    private static List<RequiredAcl> sourceTopicAcls(SextantConfig config, SourceTopicReads reads) {
        return RequiredAcls.of(config, reads, Cluster.SOURCE).stream()
                .filter(acl -> acl.resourceType() == ResourceType.TOPIC && !OWN_TOPICS.contains(acl.name()))
                .toList();
    }

    @Test
    void byDefaultEveryTopicIsDescribedAndOnlyTheMirroredOnesRead() {
        List<RequiredAcl> acls = sourceTopicAcls(config(), MIRRORED);

        assertEquals(List.of(
                        new ResourcePattern(ResourceType.TOPIC, "*", PatternType.LITERAL),
                        new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                        new ResourcePattern(ResourceType.TOPIC, "payments.", PatternType.PREFIXED)),
                acls.stream().map(acl -> new ResourcePattern(acl.resourceType(), acl.name(), acl.patternType()))
                        .toList());
        assertEquals(List.of(DESCRIBE), acls.get(0).operations(), "the wildcard: Describe only");
        assertEquals(List.of(READ), acls.get(1).operations());
        assertEquals(List.of(READ), acls.get(2).operations());
        assertTrue(acls.get(2).why().contains("prove intervals between offset syncs"), acls.get(2).why());
        assertTrue(acls.get(1).why().contains("named in the test"), "where the topics come from: " + acls.get(1));
        assertEquals("kafka-acls.sh --bootstrap-server \"$SOURCE_BOOTSTRAP\" --command-config "
                + "\"$SOURCE_ADMIN_CONFIG\" --add --allow-principal 'User:sextant' --operation Read --topic "
                + "'payments.' --resource-pattern-type prefixed", acls.get(2).command("User:sextant"));
        assertTrue(MIRRORED.shortfall().isEmpty());
    }

    @Test
    void readOnEveryTopicIsTheWiderGrantWhenChosen() {
        List<RequiredAcl> acls = sourceTopicAcls(config(), SourceTopicReads.everyTopic("--all-topics-read"));

        assertEquals(1, acls.size(), acls.toString());
        assertEquals("*", acls.get(0).name());
        assertEquals(List.of(READ, DESCRIBE), acls.get(0).operations());
        assertTrue(acls.get(0).why().contains("--all-topics-read"), acls.get(0).why());
    }

    @Test
    void noMirroredTopicFoundGrantsNoReadAndSaysWhy() {
        SourceTopicReads none = SourceTopicReads.only(List.of(), "the offset syncs could not be read");
        List<RequiredAcl> acls = sourceTopicAcls(config(), none);

        assertEquals(1, acls.size(), acls.toString());
        assertEquals(List.of(DESCRIBE), acls.get(0).operations());
        assertTrue(none.shortfall().orElseThrow().contains("the offset syncs could not be read"));
        assertTrue(none.shortfall().orElseThrow().contains("bounded rule"));
    }

    @Test
    void withoutProofsNoTopicIsReadWhateverTheChoice() {
        for (SextantConfig config : List.of(config("translation.interpolation", "off"),
                config("translation.interpolation", "unverified"), config("translation", "identity"))) {
            assertFalse(RequiredAcls.provesIntervals(config));
            for (SourceTopicReads reads : List.of(MIRRORED, SourceTopicReads.everyTopic("--all-topics-read"))) {
                List<RequiredAcl> acls = sourceTopicAcls(config, reads);
                assertEquals(1, acls.size(), acls.toString());
                assertEquals(List.of(DESCRIBE), acls.get(0).operations(), acls.toString());
            }
        }
        assertTrue(RequiredAcls.provesIntervals(config()), "verified is the default");
    }

    /**
     * Read on the mirrored topics sharpens translations only: the list the start is checked against, and refusals
     * are explained with, has none of it, so a topic mirrored after the ACLs were granted never stops Sextant.
     */
    @Test
    void theStartCheckListHasNoReadOnTheMirroredTopics() {
        SextantConfig config = config();
        List<RequiredAcl> atStart = RequiredAcls.withoutProofReads(config);

        assertEquals(RequiredAcls.of(config, SourceTopicReads.only(List.of(), "x")), atStart);
        assertTrue(atStart.stream().noneMatch(acl -> acl.cluster() == Cluster.SOURCE
                && acl.resourceType() == ResourceType.TOPIC && acl.operations().contains(READ)
                && !OWN_TOPICS.contains(acl.name())), atStart.toString());
        RequiredAcl covering = RequiredAcls.covering(atStart, Cluster.SOURCE,
                new TopicAuthorizationException(Set.of("orders"))).orElseThrow();
        assertEquals(List.of(DESCRIBE), covering.operations(), "a refusal on a mirrored topic names Describe only");
    }

    @Test
    void aTopicReadIsANameOrAPrefixOnly() {
        assertRefused(() -> SourceTopicReads.only(List.of(SourceTopicReads.literal("*")), "x"));
        assertRefused(() -> SourceTopicReads.only(List.of(SourceTopicReads.prefixed("")), "x"));
        assertRefused(() -> SourceTopicReads.only(List.of(new ResourcePattern(ResourceType.GROUP, "g",
                PatternType.LITERAL)), "x"));
        assertRefused(() -> new SourceTopicReads(true, List.of(SourceTopicReads.literal("orders")), "x"));
        assertEquals(List.of(SourceTopicReads.literal("a"), SourceTopicReads.literal("b")),
                SourceTopicReads.only(List.of(SourceTopicReads.literal("b"), SourceTopicReads.literal("a"),
                        SourceTopicReads.literal("b")), "x").topics(), "sorted, each once");
    }

    private static void assertRefused(Runnable construction) {
        assertThrows(IllegalArgumentException.class, construction::run);
    }

    /**
     * {@code source.offsets.read=admin} needs no ACL on {@code __consumer_offsets} (Describe on the groups reads their
     * offsets); with the log, a refusal of that ACL names the key that runs without it.
     */
    @Test
    void theAdminApiNeedsNothingOnConsumerOffsetsAndTheLogsRefusalNamesIt() {
        List<RequiredAcl> admin = RequiredAcls.of(config("source.offsets.read", "admin"), MIRRORED, Cluster.SOURCE);
        assertTrue(admin.stream().noneMatch(acl -> acl.name().equals("__consumer_offsets")), admin.toString());
        assertTrue(admin.stream().noneMatch(acl -> acl.name().equals("__share_group_state")), admin.toString());
        assertTrue(admin.stream().anyMatch(acl -> acl.resourceType() == ResourceType.GROUP && acl.name().equals("*")
                && acl.operations().contains(DESCRIBE)), admin.toString());

        List<RequiredAcl> log = RequiredAcls.of(config(), MIRRORED, Cluster.SOURCE);
        RequiredAcl offsets = log.stream().filter(acl -> acl.name().equals("__consumer_offsets")).findFirst()
                .orElseThrow();
        String hint = SourceAccessCheck.alternative(List.of(offsets)).orElseThrow();
        assertTrue(hint.contains("source.offsets.read=admin") && hint.contains("source.offsets.poll.interval.ms"),
                hint);
        assertTrue(SourceAccessCheck.alternative(log.stream().filter(acl -> acl != offsets).toList()).isEmpty());
    }
}
