package dev.sextant.translate;

import java.util.Optional;

/**
 * For offset-preserving mirrors (Cluster Linking, Kafka Cluster Mirroring): the destination offset is the source
 * offset.
 */
public final class IdentityTranslator implements OffsetTranslator {

    @Override
    public Optional<OffsetTranslation> translate(String sourceTopic, int partition, long offset) {
        return offset < 0 ? Optional.empty() : Optional.of(OffsetTranslation.exact(offset, offset));
    }
}
