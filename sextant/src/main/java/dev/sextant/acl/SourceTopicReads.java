package dev.sextant.acl;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Which of the source cluster's topics Sextant is granted Read on, to prove intervals between offset syncs by their
 * records ({@code translation.interpolation=verified}): every topic (the wildcard), or the mirrored topics, each a
 * literal name or a prefix. Read here sharpens translations and nothing else: a topic left out keeps MirrorMaker 2's
 * bounded rule, so none of it is ever checked at start.
 *
 * @param everyTopic Read on the wildcard {@code *}
 * @param topics     the literal names and prefixes (empty with {@code everyTopic})
 * @param foundIn    where the topics come from, or why none were found, in words for the operator
 */
public record SourceTopicReads(boolean everyTopic, List<ResourcePattern> topics, String foundIn) {

    public SourceTopicReads {
        topics = topics.stream().sorted(Comparator.comparing(ResourcePattern::name)
                .thenComparing(ResourcePattern::patternType)).distinct().toList();
        Objects.requireNonNull(foundIn, "foundIn");
        for (ResourcePattern topic : topics) {
            if (topic.resourceType() != ResourceType.TOPIC || topic.name().isEmpty()
                    || topic.name().equals(ResourcePattern.WILDCARD_RESOURCE)
                    || (topic.patternType() != PatternType.LITERAL && topic.patternType() != PatternType.PREFIXED)) {
                throw new IllegalArgumentException("not a topic name or prefix: " + topic);
            }
        }
        if (everyTopic && !topics.isEmpty()) {
            throw new IllegalArgumentException("Read on every topic names no topic");
        }
    }

    /** Read on every topic: the wider grant, which a newly mirrored topic needs no new ACL under. */
    public static SourceTopicReads everyTopic(String foundIn) {
        return new SourceTopicReads(true, List.of(), foundIn);
    }

    /** Read on these topics (literal names and prefixes) only; none when {@code topics} is empty. */
    public static SourceTopicReads only(List<ResourcePattern> topics, String foundIn) {
        return new SourceTopicReads(false, topics, foundIn);
    }

    /** Read on a topic of this name. */
    public static ResourcePattern literal(String topic) {
        return new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL);
    }

    /** Read on every topic whose name begins with {@code prefix}. */
    public static ResourcePattern prefixed(String prefix) {
        return new ResourcePattern(ResourceType.TOPIC, prefix, PatternType.PREFIXED);
    }

    /**
     * What the operator should know when no mirrored topic is granted Read: why, and what it means. Empty when
     * there is a grant.
     */
    public Optional<String> shortfall() {
        if (everyTopic || !topics.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Read on no source topic: " + foundIn + ". Without it every commit between two offset "
                + "syncs keeps MirrorMaker 2's bounded rule (nothing stops, nothing is skipped; Sextant logs each "
                + "topic it may not read)");
    }
}
