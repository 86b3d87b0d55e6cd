package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The B-to-C Sextant of a chain A to B to C ({@code application.id} {@code bc}, destination cluster {@code C}; its
 * pinned id {@code C0} before a rebuild): what it takes in of the marked commits it finds on B.
 */
class ChainedWritesTest {

    private final ChainedWrites chained = new ChainedWrites("bc", () -> Set.of("C", "C0"));

    @Test
    void aWriteFromAClusterUpstreamIsForwarded() {
        assertTrue(chained.forwarded("sextant/ab c=A t=1 o=2 b=0 src=30"));
        assertTrue(chained.takenIn("sextant/ab c=A src=30"));
    }

    @Test
    void aWriteFromTheDestinationIsTheReverseDirectionsAndLeftOut() {
        assertFalse(chained.takenIn("sextant/cb c=C t=1 b=0 src=30"));
        assertFalse(chained.takenIn("sextant/cb c=C0 t=1 b=0 src=30"), "the pinned id too, while not accepted");
    }

    @Test
    void whatCannotBeToldIsLeftOutAsBefore() {
        assertFalse(chained.takenIn("sextant/ab t=1 b=0 src=30"), "an older release's mark names no cluster");
        assertFalse(chained.takenIn("sextant/ab src=30"));
        assertFalse(chained.takenIn("sextant/ab c=A src=x"), "does not read as a mark");
        assertFalse(chained.takenIn("sextant/ab"));
        assertFalse(chained.takenIn("sextant/bc c=A src=30"), "this Sextant's own mark");
        assertFalse(chained.takenIn("sextant/bc"));
        assertFalse(new ChainedWrites("bc", Set::of).takenIn("sextant/ab c=A src=30"), "the destination not known");
    }

    @Test
    void aConsumersCommitIsTakenInWithoutAskingForTheDestination() {
        AtomicInteger asked = new AtomicInteger();
        ChainedWrites counting = new ChainedWrites("bc", () -> {
            asked.incrementAndGet();
            return Set.of("C");
        });
        assertTrue(counting.takenIn(null));
        assertTrue(counting.takenIn(""));
        assertTrue(counting.takenIn("a consumer's note"));
        assertFalse(counting.forwarded("a consumer's note"), "not a Sextant's write");
        assertTrue(counting.takenIn("sextant/ab c=A src=30"));
        assertTrue(asked.get() == 1, "asked once, for the mark naming a cluster");
    }
}
