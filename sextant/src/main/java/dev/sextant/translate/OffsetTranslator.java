package dev.sextant.translate;

import java.util.Optional;

/**
 * Maps a committed offset of a source partition to the matching offset of its mirror on the destination.
 * Implementations never overshoot: a consumer resuming at the result loses no record.
 */
public interface OffsetTranslator {

    /**
     * @return the translation, or empty when nothing known yet covers {@code offset} (no offset sync at or below
     *     it): the caller keeps the position pending and tries again later
     */
    Optional<OffsetTranslation> translate(String sourceTopic, int partition, long offset);
}
