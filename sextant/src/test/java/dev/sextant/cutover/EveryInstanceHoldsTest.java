package dev.sextant.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient.InstanceCutovers;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EveryInstanceHoldsTest {

    @Test
    void aGroupIsHeldOnlyOnceEveryInstanceHoldsIt() {
        List<InstanceCutovers> both = List.of(new InstanceCutovers("a:1", List.of("g", "h"), null),
                new InstanceCutovers("b:1", List.of("g"), null));
        assertEquals(Optional.empty(), EveryInstanceHolds.missing(both, "g", true));
        assertEquals("instance b:1 does not hold it cut over yet",
                EveryInstanceHolds.missing(both, "h", true).orElseThrow());
        assertEquals("instance a:1 still holds it cut over", EveryInstanceHolds.missing(both, "h", false)
                .orElseThrow(), "an undo waits for every instance to let it go");
    }

    @Test
    void anInstanceThatCannotSayIsNotTakenToHoldIt() {
        String missing = EveryInstanceHolds.missing(List.of(new InstanceCutovers("a:1", List.of("g"), null),
                new InstanceCutovers("old:1", null, "404: a release before this one")), "g", true).orElseThrow();
        assertTrue(missing.contains("instance old:1 did not say (404: a release before this one)"), missing);
        assertTrue(EveryInstanceHolds.missing(List.of(), "g", true).isPresent(), "no instance: nothing holds it");
    }
}
