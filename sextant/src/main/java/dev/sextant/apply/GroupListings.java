package dev.sextant.apply;

import dev.sextant.domain.GroupKind;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;

/**
 * The destination's group listing as {@link DestinationGroup}s: the Sextant phase each group's type belongs to (none
 * for a type Sextant never writes), whether it is active, and how its type is shown. Kafka Streams groups (KIP-1071)
 * are in the consumer phase: their offsets are ordinary commits, and an empty one accepts an admin commit as an
 * empty consumer group does (one with members refuses it: active).
 */
final class GroupListings {

    /** "classic", "consumer", "share", ...: how a group's type is shown. */
    private static final Map<GroupType, String> KIND_LABELS = new EnumMap<>(GroupType.class);

    static {
        for (GroupType kind : GroupType.values()) {
            KIND_LABELS.put(kind, kind.toString().toLowerCase(Locale.ROOT));
        }
    }

    private GroupListings() {
    }

    static Map<String, DestinationGroup> toGroups(Collection<GroupListing> listings) {
        // runs for every group of the destination at each listing: no per-group string building
        Map<String, DestinationGroup> groups = new HashMap<>(Math.max(16, listings.size() * 4 / 3 + 1));
        Map<String, String> classicLabels = new HashMap<>();
        for (GroupListing listing : listings) {
            GroupType kind = listing.type().orElse(GroupType.UNKNOWN);
            String protocol = listing.protocol();
            GroupKind phase = switch (kind) {
                case CONSUMER -> GroupKind.CONSUMER;
                // classic groups with another protocol type (connect, ...) are not consumer groups
                case CLASSIC -> protocol == null || protocol.isEmpty() || protocol.equals("consumer")
                        ? GroupKind.CONSUMER : null;
                case SHARE -> GroupKind.SHARE;
                // a streams group keeps ordinary committed offsets, and takes an admin commit while empty
                case STREAMS -> GroupKind.CONSUMER;
                default -> null;
            };
            GroupState state = listing.groupState().orElse(GroupState.UNKNOWN);
            boolean active = state != GroupState.EMPTY && state != GroupState.DEAD && state != GroupState.UNKNOWN;
            String label = kind == GroupType.CLASSIC && protocol != null && !protocol.isEmpty()
                    ? classicLabels.computeIfAbsent(protocol, p -> KIND_LABELS.get(GroupType.CLASSIC) + "/" + p)
                    : KIND_LABELS.get(kind);
            groups.put(listing.groupId(),
                    new DestinationGroup(listing.groupId(), phase, label, active, state.toString()));
        }
        return groups;
    }
}
