package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class OffsetOwnershipTest {

    private final OffsetOwnership ownership = new OffsetOwnership("sextant-prod");

    @Test
    void aMarkNamesTheSourceCommitItCarries() {
        String metadata = ownership.metadataFor(1_764_547_200_000L, 4_321);
        assertEquals("sextant/sextant-prod t=1764547200000 src=4321", metadata);
        assertTrue(ownership.owns(metadata));
        assertEquals(Optional.of(new OffsetOwnership.Mark(1_764_547_200_000L, 4_321)), ownership.mark(metadata));
    }

    @Test
    void aMarkCarriesTheReplayBoundOfItsTranslation() {
        String metadata = ownership.metadataFor(1_000, 4_321, 17);
        assertEquals("sextant/sextant-prod t=1000 b=17 src=4321", metadata);
        assertEquals(Optional.of(new OffsetOwnership.Mark(1_000, 4_321, 17)), ownership.mark(metadata));
        assertEquals(Optional.of(new OffsetOwnership.Mark(1_000, 4_321, -1)),
                ownership.mark("sextant/sextant-prod t=1000 src=4321"), "a mark written before the bound was added");
        assertEquals("sextant/sextant-prod t=1000 src=4321", ownership.metadataFor(1_000, 4_321, -1),
                "an unknown bound is left out");
    }

    @Test
    void marksWrittenBeforeTheCommitTimeAreOwnedWithAnUnknownTime() {
        assertEquals(Optional.of(new OffsetOwnership.Mark(-1, 77)), ownership.mark("sextant/sextant-prod src=77"));
    }

    @Test
    void othersOffsetsCarryNoMark() {
        assertFalse(ownership.owns("sextant/sextant-prod-2 t=1 src=1"), "another application id");
        assertEquals(Optional.empty(), ownership.mark("sextant/sextant-prod-2 t=1 src=1"));
        assertEquals(Optional.empty(), ownership.mark(""));
        assertEquals(Optional.empty(), ownership.mark(null));
        assertEquals(Optional.empty(), ownership.mark("sextant/sextant-prod garbage"), "ours, but unreadable");
    }
}
