package dev.sextant.apply;

import dev.sextant.domain.GroupKind;

/**
 * A group as listed on the destination.
 *
 * @param type      the Sextant phase its type belongs to, or null for a type Sextant never writes (streams, connect)
 * @param typeLabel the destination's own name for its type ("classic", "consumer", "share", "streams", ...)
 * @param active    true while it has members (any state but Empty and Dead)
 * @param state     the destination's group state, for messages
 */
public record DestinationGroup(String groupId, GroupKind type, String typeLabel, boolean active, String state) {
}
