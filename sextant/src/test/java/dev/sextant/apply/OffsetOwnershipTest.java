package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.PositionKey;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
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
    void anyMarkReadsAnotherSextantsWriteAndNoConsumersCommit() {
        String forward = new OffsetOwnership("orders-fwd", "Ab-9_xYz").metadataFor(1_000, 300, 0);
        assertEquals(Optional.of(new OffsetOwnership.Mark(1_000, 300, 0, -1, "Ab-9_xYz")),
                OffsetOwnership.anyMark(forward), "the forward Sextant's write, read by any application");
        assertEquals(Optional.empty(), ownership.mark(forward), "not this application's mark");
        assertEquals(Optional.of(new OffsetOwnership.Mark(-1, 7)), OffsetOwnership.anyMark("sextant/x src=7"));
        assertEquals(Optional.empty(), OffsetOwnership.anyMark(""), "a consumer's commit");
        assertEquals(Optional.empty(), OffsetOwnership.anyMark(null));
        assertEquals(Optional.empty(), OffsetOwnership.anyMark("sextant/x"), "no fields");
        assertEquals(Optional.empty(), OffsetOwnership.anyMark("sextant/x src=seven"), "does not read as a mark");
        assertEquals(Optional.empty(), OffsetOwnership.anyMark("sextant/x src=7" + " ".repeat(300)),
                "longer than any mark");
    }

    @Test
    void aMarkNamesItsSourceClusterAndTellsAnotherOnesApart() {
        OffsetOwnership here = new OffsetOwnership("sextant-prod", "Ab-9_xYz");
        PlannedPartition part = new PlannedPartition(new PositionKey("g", "orders", 0),
                new TopicPartition("source.orders", 0), 4_321, 1_000, 4_300, 17, 912, false);
        String metadata = here.metadataFor(part);
        assertEquals("sextant/sextant-prod c=Ab-9_xYz t=1000 o=912 b=17 src=4321", metadata);
        OffsetOwnership.Mark mark = here.mark(metadata).orElseThrow();
        assertEquals(new OffsetOwnership.Mark(1_000, 4_321, 17, 912, "Ab-9_xYz"), mark);
        assertFalse(here.fromAnotherSource(mark));

        OffsetOwnership replaced = new OffsetOwnership("sextant-prod", "NewCluster");
        assertTrue(replaced.fromAnotherSource(replaced.mark(metadata).orElseThrow()));
        assertFalse(replaced.fromAnotherSource(replaced.mark("sextant/sextant-prod t=1000 src=4321").orElseThrow()),
                "a mark naming no cluster is not another's");
        assertFalse(ownership.fromAnotherSource(mark), "a command that does not know the source tells none apart");
        assertEquals(Optional.of("Ab-9_xYz"), replaced.otherSource(metadata));
        assertEquals(Optional.empty(), here.otherSource(metadata), "this source's own mark");
        assertEquals(Optional.empty(), replaced.otherSource("sextant/sextant-prod t=1000 src=4321"), "no c=");
        assertEquals(Optional.empty(), replaced.otherSource("a consumer's own metadata"));

        String released = replaced.released(mark);
        assertEquals("sextant/sextant-prod b=17 src=4321", released, "the offset's bound kept, no commit named");
        assertEquals(Optional.of(new OffsetOwnership.Mark(-1, 4_321, 17, -1)), replaced.mark(released));
    }

    @Test
    void aMarkCarriesTheCommitsPlaceInTheLogAndOrdersByIt() {
        PlannedPartition part = new PlannedPartition(new PositionKey("g", "orders", 0),
                new TopicPartition("source.orders", 0), 4_321, 1_000, 4_300, 17, 912, false);
        String metadata = ownership.metadataFor(part);
        assertEquals("sextant/sextant-prod t=1000 o=912 b=17 src=4321", metadata);
        OffsetOwnership.Mark mark = ownership.mark(metadata).orElseThrow();
        assertEquals(new OffsetOwnership.Mark(1_000, 4_321, 17, 912), mark);

        // a commit replayed in the same millisecond, and one from a coordinator whose clock is behind
        PlannedPartition replayed = new PlannedPartition(part.key(), part.destination(), 4_000, 1_000, 3_990, 5, 911,
                false);
        PlannedPartition laterOnASlowClock = new PlannedPartition(part.key(), part.destination(), 5_000, 400, 4_990,
                5, 913, false);
        assertTrue(mark.newerThan(replayed), "by the log, although the time is the same");
        assertFalse(mark.olderThan(replayed));
        assertFalse(mark.newerThan(laterOnASlowClock), "by the log, although its time is earlier");
        assertTrue(mark.olderThan(laterOnASlowClock));

        OffsetOwnership.Mark old = ownership.mark("sextant/sextant-prod t=1000 b=17 src=4321").orElseThrow();
        assertEquals(-1, old.commitLogOffset(), "a mark written before o= was added");
        assertTrue(old.newerThan(laterOnASlowClock), "without the log position on both sides: by time, as before");
        assertFalse(old.newerThan(replayed), "the same time is not newer");
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

    @Test
    void metadataThatStartsLikeAMarkButDoesNotReadAsOneIsSomeoneElses() {
        String overflow = "sextant/sextant-prod src=99999999999999999999";
        assertEquals(Optional.empty(), ownership.mark(overflow));
        assertFalse(ownership.owns(overflow), "a source offset past a long: no Sextant wrote it");
        assertFalse(ownership.owns("sextant/sextant-prod t=1000 b=x src=5"), "a garbage field");
        assertFalse(ownership.owns("sextant/sextant-prod t=1000 o=18446744073709551616 src=5"),
                "a log offset past a long");
        assertFalse(ownership.owns("sextant/sextant-prod " + "t=1 ".repeat(1_000) + "src=5"), "4 KB of text");
        assertFalse(ownership.owns("sextant/sextant-prod hello"), "words after the prefix");
        assertTrue(ownership.owns("sextant/sextant-prod"), "the bare prefix, as the first releases wrote it");
        assertTrue(ownership.owns("sextant/sextant-prod b=0 src=5"), "a released mark");
    }
}
