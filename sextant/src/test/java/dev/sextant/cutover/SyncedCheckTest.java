package dev.sextant.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.client.SextantClient;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SyncedCheckTest {

    private static final Map<TopicPartition, Long> FENCED = Map.of(new TopicPartition("orders", 0), 600L);

    private static SextantClient.Partition position(long source, Long translated, Long applied, String status,
                                                    long bound) {
        return new SextantClient.Partition("orders", 0, "source.orders", source, translated, bound == 0 ? "exact"
                : "bounded", bound, applied, applied == null ? null : 1L, status, 1L);
    }

    @Test
    void syncedWhenTheLastCommitIsAppliedAsTranslated() {
        SyncedCheck.Verdict verdict = SyncedCheck.check(FENCED, List.of(position(600, 600L, 600L, "APPLIED", 0)));
        assertEquals(SyncedCheck.State.SYNCED, verdict.state());
        assertEquals(0, verdict.worstBound());
        assertEquals(3, SyncedCheck.check(FENCED, List.of(position(600, 598L, 598L, "APPLIED", 3))).worstBound());
    }

    @Test
    void waitsForACommitNotReadAWriteNotAnsweredAndOneHeldAtTheMirrorsEnd() {
        assertEquals(SyncedCheck.State.WAITING, SyncedCheck.check(FENCED, List.of()).state());
        assertEquals(SyncedCheck.State.WAITING, SyncedCheck.check(FENCED,
                List.of(position(500, 500L, 500L, "APPLIED", 0))).state(), "an older commit");
        assertEquals(SyncedCheck.State.WAITING, SyncedCheck.check(FENCED,
                List.of(position(600, 600L, 500L, "PENDING", 0))).state());
        SyncedCheck.Verdict clamped = SyncedCheck.check(FENCED, List.of(position(600, 600L, 580L, "APPLIED", 0)));
        assertEquals(SyncedCheck.State.WAITING, clamped.state(), "written at the mirror's end, not yet at 600");
        assertTrue(clamped.detail().contains("580 written"), clamped.detail());
    }

    @Test
    void aGuardOfTheSyncRefuses() {
        SyncedCheck.Verdict verdict = SyncedCheck.check(FENCED, List.of(position(600, 600L, 500L, "GROUP_ACTIVE",
                0)));
        assertEquals(SyncedCheck.State.REFUSED, verdict.state());
        assertEquals("GROUP_ACTIVE", verdict.reason());
    }

    @Test
    void aSharePartitionIsAtItsFencedStartOffsetOnceTheSyncsEffectiveStartOffsetIsAtOrAboveIt() {
        // the source lists the stored start offset (600); acknowledged records above it put the effective one at 630
        SyncedCheck.Verdict verdict = SyncedCheck.check(FENCED, List.of(position(630, 630L, 630L, "APPLIED", 0)),
                true);
        assertEquals(SyncedCheck.State.SYNCED, verdict.state(), String.valueOf(verdict.detail()));
        assertEquals(SyncedCheck.State.WAITING, SyncedCheck.check(FENCED,
                List.of(position(630, 630L, 630L, "APPLIED", 0))).state(), "a consumer group's commit is exact");
        SyncedCheck.Verdict behind = SyncedCheck.check(FENCED, List.of(position(580, 580L, 580L, "APPLIED", 0)),
                true);
        assertEquals(SyncedCheck.State.WAITING, behind.state(), "the sync has not read the state of 600 yet");
        assertTrue(behind.detail().contains("share state at start offset 600"), behind.detail());
        assertEquals(SyncedCheck.State.WAITING, SyncedCheck.check(FENCED,
                List.of(position(630, 630L, 600L, "PENDING", 0)), true).state(), "not written yet");
    }
}
