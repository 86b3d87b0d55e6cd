package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.GROUPS_INCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_EXCLUDE_CONFIG;
import static dev.sextant.config.ConfigKeys.TOPICS_INCLUDE_CONFIG;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which consumer groups and source topics Sextant syncs: {@code groups.include}, {@code groups.exclude},
 * {@code topics.include} and {@code topics.exclude}, each compiled from its {@link PatternList}.
 *
 * <p>Invariants: a group or topic is synced when its include pattern matches the whole name and its exclude pattern
 * does not; Sextant's own {@code application.id} is always among the excluded groups, whatever
 * {@code groups.exclude} says.
 */
record SyncFilters(Pattern groupsInclude, Pattern groupsExclude, Pattern topicsInclude, Pattern topicsExclude) {

    /** @param values every key's parsed value, as {@link org.apache.kafka.common.config.ConfigDef#parse} gives them */
    static SyncFilters of(Map<String, Object> values) {
        return new SyncFilters(
                PatternList.compile((String) values.get(GROUPS_INCLUDE_CONFIG)),
                Pattern.compile("(?:" + PatternList.regex((String) values.get(GROUPS_EXCLUDE_CONFIG)) + ")|"
                        + Pattern.quote((String) values.get(APPLICATION_ID_CONFIG))),
                PatternList.compile((String) values.get(TOPICS_INCLUDE_CONFIG)),
                PatternList.compile((String) values.get(TOPICS_EXCLUDE_CONFIG)));
    }

    /** Whether the group is synced. */
    boolean includesGroup(String groupId) {
        return groupsInclude.matcher(groupId).matches() && !groupsExclude.matcher(groupId).matches();
    }

    /** Whether the source topic is synced. */
    boolean includesTopic(String topic) {
        return topicsInclude.matcher(topic).matches() && !topicsExclude.matcher(topic).matches();
    }
}
