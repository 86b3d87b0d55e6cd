package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.translate.OffsetSyncPoint;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** The checks failback makes of the forward Sextant's history before it inverts it. */
class ForwardHistoryCheckTest {

    private static final UnaryOperator<String> MIRROR_OF = t -> "source." + t;
    private final Uuid orders = Uuid.randomUuid();
    private final InMemorySyncHistory forward = new InMemorySyncHistory();

    ForwardHistoryCheckTest() {
        forward.destinationCluster("cluster-b");
        forward.put(new OffsetSyncPoint("orders", 0, 900, 800));
        forward.mirrorIncarnation("orders", orders);
        forward.put(new OffsetSyncPoint("payments", 0, 400, 400)); // an earlier forward release: no mirror id
    }

    @Test
    void aHistoryPinnedToAnotherClusterTranslatesNothing() {
        ForwardHistoryCheck.Result checked = ForwardHistoryCheck.judge(forward, "cluster-c",
                Map.of("source.orders", orders), Map.of(), MIRROR_OF);

        assertTrue(checked.refusal().startsWith("the forward Sextant's history pins destination cluster cluster-b, "
                + "and this Sextant's source is cluster cluster-c"), checked.refusal());
        assertFalse(checked.keeps("orders"));
        assertFalse(checked.keeps("payments"));
    }

    @Test
    void aMirrorCreatedAgainIsNotInvertedAndTheOthersAre() {
        ForwardHistoryCheck.Result checked = ForwardHistoryCheck.judge(forward, "cluster-b",
                Map.of("source.orders", Uuid.randomUuid(), "source.payments", Uuid.randomUuid()),
                Map.of(new TopicPartition("source.payments", 0), 1_000L), MIRROR_OF);

        assertNull(checked.refusal());
        assertEquals(Set.of("orders"), checked.refused().keySet());
        assertTrue(checked.refused().get("orders").startsWith("mirror topic source.orders was created again (topic "
                + "id " + orders), checked.refused().get("orders"));
        assertFalse(checked.keeps("orders"));
        assertTrue(checked.keeps("payments"), "no id recorded, inside the mirror's log: inverted, unproven");
        assertEquals(Set.of("payments"), checked.unproven().keySet());
    }

    @Test
    void withoutARecordedIdASyncPastTheMirrorsEndIsRefusedAndTheRightMirrorKept() {
        ForwardHistoryCheck.Result checked = ForwardHistoryCheck.judge(forward, "cluster-b",
                Map.of("source.orders", orders, "source.payments", Uuid.randomUuid()),
                Map.of(new TopicPartition("source.payments", 0), 400L), MIRROR_OF);

        assertTrue(checked.keeps("orders"));
        assertFalse(checked.keeps("payments"));
        assertTrue(checked.refused().get("payments").contains("points at offset 400, and the mirror's log ends at 400"),
                checked.refused().get("payments"));
    }
}
