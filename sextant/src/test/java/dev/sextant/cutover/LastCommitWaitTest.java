package dev.sextant.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.ChainedWrites;
import dev.sextant.client.SextantClient;
import dev.sextant.source.SourceGroup;
import dev.sextant.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LastCommitWait#await}, its loop run on a clock that only the fake watch's polls move, against a fake
 * running instance over HTTP. A class timeout turns a loop that never ends into a failure.
 */
@Timeout(30)
class LastCommitWaitTest {

    private static final String GROUP = "billing";
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final long FENCED = 600;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
    private static final PlannedCutover.Options APPLY = new PlannedCutover.Options(true, Duration.ZERO, TIMEOUT);

    private final MutableClock clock = new MutableClock(START);
    private final Map<String, CutoverReport.GroupResult> results = new TreeMap<>();
    private final List<String> progress = new ArrayList<>();
    private FakeSextantInstance instance;
    private ClockedCommitWatch watch;
    private LastCommitWait wait;

    @BeforeEach
    void start() {
        instance = new FakeSextantInstance();
        watch = new ClockedCommitWatch(clock);
        wait = new LastCommitWait(instance.client(), clock, progress::add, topic -> !topic.startsWith("internal"),
                new ChainedWrites("cut", () -> Set.of("A")));
    }

    @AfterEach
    void stop() {
        instance.close();
    }

    /** The sync's position of orders-0: read at {@code source}, written as translated, with its bound. */
    private static SextantClient.Partition applied(long source, long bound) {
        return new SextantClient.Partition("orders", 0, "source.orders", source, source - bound,
                bound == 0 ? "exact" : "bounded", bound, source - bound, 1L, "APPLIED", 1L);
    }

    private static SextantClient.Partition withStatus(String status) {
        return new SextantClient.Partition("orders", 0, "source.orders", FENCED, FENCED, "exact", 0L, 500L, 1L,
                status, 1L);
    }

    private static Map<String, SourceGroup> fenced(Map<TopicPartition, Long> offsets) {
        return Map.of(GROUP, new SourceGroup(GROUP, "consumer", GroupState.EMPTY, List.of(), offsets));
    }

    private Map<String, SyncedCheck.Verdict> await(PlannedCutover.Options options) {
        return wait.await(fenced(Map.of(ORDERS, FENCED)), watch, options, results, Map.of(GROUP, "consumer"));
    }

    private long elapsed() {
        return clock.millis() - START.toEpochMilli();
    }

    @Test
    void theWaitCoversNoPartitionWhoseLastCommitIsASextantsWrite() {
        TopicPartition written = new TopicPartition("orders", 1);
        SourceGroup group = new SourceGroup(GROUP, "consumer", GroupState.EMPTY, List.of(),
                Map.of(ORDERS, FENCED, written, 300L, new TopicPartition("internal", 0), 5L),
                Map.of(written, "sextant/fwd c=A t=1 b=0 src=300", ORDERS, "a consumer's note"));
        assertEquals(Map.of(ORDERS, FENCED), wait.synced(group));
    }

    @Test
    void theWaitCoversAPartitionWhoseLastCommitIsAChainsWrite() {
        TopicPartition chained = new TopicPartition("orders", 1);
        SourceGroup group = new SourceGroup(GROUP, "consumer", GroupState.EMPTY, List.of(),
                Map.of(ORDERS, FENCED, chained, 300L), Map.of(chained, "sextant/up c=Z t=1 b=0 src=30"));
        assertEquals(Map.of(ORDERS, FENCED, chained, 300L), wait.synced(group), "cluster Z is upstream: forwarded");
    }

    @Test
    void aGroupSyncedExactAtOnceIsReadyWithoutWaiting() {
        instance.reports(GROUP, applied(FENCED, 0));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(SyncedCheck.State.SYNCED, ready.get(GROUP).state());
        assertEquals(0, ready.get(GROUP).worstBound());
        assertEquals(Map.of(), results);
        assertEquals(0, watch.polls());
        assertEquals(1, instance.asked(GROUP));
        assertEquals(List.of("waiting for the sync to write the last commit of 1 group(s)"), progress);
    }

    @Test
    void aBoundedGroupIsGivenTheGraceToBecomeExactThenTakenWithItsBound() {
        instance.reports(GROUP, applied(FENCED, 3));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(Map.of(), results);
        assertTrue(elapsed() >= LastCommitWait.PROOF_GRACE.toMillis(), "taken before the grace passed: " + elapsed());
        assertTrue(elapsed() < LastCommitWait.PROOF_GRACE.toMillis() + 1_000, "kept past the grace: " + elapsed());
    }

    @Test
    void aBoundedGroupProvenExactWithinTheGraceIsTakenExact() {
        instance.reports(GROUP, applied(FENCED, 3));
        watch.at(Duration.ofSeconds(4), () -> instance.reports(GROUP, applied(FENCED, 0)));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(0, ready.get(GROUP).worstBound());
        assertEquals(4_000, elapsed());
    }

    @Test
    void theGraceStartsWhenTheGroupIsFirstSeenSynced() {
        instance.reports(GROUP, withStatus("PENDING"));
        watch.at(Duration.ofSeconds(5), () -> instance.reports(GROUP, applied(FENCED, 3)));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(5_000 + LastCommitWait.PROOF_GRACE.toMillis(), elapsed());
    }

    @Test
    void aGroupThatFallsOutOfSyncStartsItsGraceAgain() {
        instance.reports(GROUP, applied(FENCED, 3));
        watch.at(Duration.ofSeconds(6), () -> instance.reports(GROUP, withStatus("PENDING")));
        watch.at(Duration.ofSeconds(8), () -> instance.reports(GROUP, applied(FENCED, 3)));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(8_000 + LastCommitWait.PROOF_GRACE.toMillis(), elapsed());
    }

    @Test
    void aBoundedGroupStillInItsGraceAtTheTimeoutIsTakenWithItsBound() {
        instance.reports(GROUP, applied(FENCED, 3));
        Map<String, SyncedCheck.Verdict> ready = await(new PlannedCutover.Options(true, Duration.ZERO,
                Duration.ofSeconds(4)));
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(Map.of(), results);
        assertEquals(4_000, elapsed());
    }

    @Test
    void aCommitSeenAfterTheFenceRefusesTheGroupEvenWhenSynced() {
        instance.reports(GROUP, applied(FENCED, 0));
        watch.commit(GROUP, ORDERS, FENCED + 1);
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(Map.of(), ready);
        CutoverReport.GroupResult result = results.get(GROUP);
        assertEquals(CutoverReport.STILL_COMMITTING, result.status());
        assertFalse(result.ok());
        assertEquals("consumer", result.groupType());
        assertTrue(result.message().contains("orders-0 offset 601"), result.message());
    }

    @Test
    void aCommitSeenWhileWaitingEndsTheWait() {
        instance.reports(GROUP, withStatus("PENDING"));
        watch.at(Duration.ofSeconds(2), () -> watch.commit(GROUP, ORDERS, FENCED + 1));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(Map.of(), ready);
        assertEquals(CutoverReport.STILL_COMMITTING, results.get(GROUP).status());
        assertEquals(2_000, elapsed());
    }

    @Test
    void aGuardOfTheSyncRefusesTheGroupAtOnce() {
        instance.reports(GROUP, withStatus("DESTINATION_DIVERGED"));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(Map.of(), ready);
        CutoverReport.GroupResult result = results.get(GROUP);
        assertEquals("DESTINATION_DIVERGED", result.status());
        assertFalse(result.ok());
        assertTrue(result.message().contains("the sync refuses to write the group"), result.message());
        assertEquals(0, watch.polls());
    }

    @Test
    void aGroupNotSyncedAtTheTimeoutIsRefusedNamingTheSeconds() {
        instance.reports(GROUP, withStatus("PENDING"));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(Map.of(), ready);
        CutoverReport.GroupResult result = results.get(GROUP);
        assertEquals(CutoverReport.NOT_SYNCED, result.status());
        assertFalse(result.ok());
        assertTrue(result.message().startsWith("the sync did not write the group's last commit within 30 s ("),
                result.message());
        assertTrue(result.message().contains("PENDING, 500 written"), "names what it waited for: "
                + result.message());
        assertTrue(elapsed() >= TIMEOUT.toMillis(), "gave up early: " + elapsed());
        assertTrue(elapsed() < TIMEOUT.toMillis() + 1_000, "kept waiting past the timeout: " + elapsed());
    }

    @Test
    void aDryRunAsksOnceAndTakesTheGroupAsItStands() {
        instance.reports(GROUP, withStatus("PENDING"));
        Map<String, SyncedCheck.Verdict> ready = await(new PlannedCutover.Options(false, Duration.ZERO, TIMEOUT));
        assertEquals(SyncedCheck.State.WAITING, ready.get(GROUP).state());
        assertEquals(Map.of(), results);
        assertEquals(1, instance.asked(GROUP));
        assertEquals(0, watch.polls());
    }

    @Test
    void aDryRunTakesABoundedGroupWithoutTheGrace() {
        instance.reports(GROUP, applied(FENCED, 3));
        Map<String, SyncedCheck.Verdict> ready = await(new PlannedCutover.Options(false, Duration.ZERO, TIMEOUT));
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(1, instance.asked(GROUP));
        assertEquals(0, elapsed());
    }

    @Test
    void anInstanceThatDoesNotAnswerIsAskedAgain() {
        instance.fails(GROUP, 500);
        watch.at(Duration.ofSeconds(3), () -> instance.reports(GROUP, applied(FENCED, 0)));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(SyncedCheck.State.SYNCED, ready.get(GROUP).state());
        assertEquals(Map.of(), results);
        assertEquals(3_000, elapsed());
        assertEquals(7, instance.asked(GROUP));
    }

    @Test
    void anInstanceSilentUntilTheTimeoutLeavesTheGroupNotSynced() {
        instance.fails(GROUP, 500);
        await(APPLY);
        CutoverReport.GroupResult result = results.get(GROUP);
        assertEquals(CutoverReport.NOT_SYNCED, result.status());
        assertTrue(result.message().contains("the Sextant instance did not answer"), result.message());
    }

    @Test
    void anUnansweredAskDoesNotRestartTheGrace() {
        instance.reports(GROUP, applied(FENCED, 3));
        watch.at(Duration.ofSeconds(2), () -> instance.fails(GROUP, 500));
        watch.at(Duration.ofSeconds(4), () -> instance.reports(GROUP, applied(FENCED, 3)));
        Map<String, SyncedCheck.Verdict> ready = await(APPLY);
        assertEquals(3, ready.get(GROUP).worstBound());
        assertEquals(LastCommitWait.PROOF_GRACE.toMillis(), elapsed(),
                "the grace counted from the first synced answer");
    }

    @Test
    void aBoundedGroupWhoseInstanceFallsSilentIsTakenWithItsBoundAtTheTimeout() {
        instance.reports(GROUP, applied(FENCED, 3));
        watch.at(Duration.ofSeconds(1), () -> instance.fails(GROUP, 500));
        Map<String, SyncedCheck.Verdict> ready = await(new PlannedCutover.Options(true, Duration.ZERO,
                Duration.ofSeconds(4)));
        assertEquals(3, ready.get(GROUP).worstBound(), "what the instance said last, before it fell silent");
        assertEquals(Map.of(), results);
    }

    @Test
    void aDryRunWithTheInstanceSilentSaysSo() {
        instance.fails(GROUP, 500);
        Map<String, SyncedCheck.Verdict> ready = await(new PlannedCutover.Options(false, Duration.ZERO, TIMEOUT));
        assertEquals(SyncedCheck.State.UNANSWERED, ready.get(GROUP).state(), "not taken for a sync that waits");
    }

    @Test
    void onlyThePartitionsTheSyncMovesAreAwaited() {
        instance.reports(GROUP, applied(FENCED, 0));
        Map<String, SyncedCheck.Verdict> ready = wait.await(fenced(Map.of(ORDERS, FENCED,
                new TopicPartition("internal-audit", 0), 42L)), watch, APPLY, results, Map.of(GROUP, "consumer"));
        assertEquals(SyncedCheck.State.SYNCED, ready.get(GROUP).state());
        assertEquals(0, watch.polls());
    }

    @Test
    void noGroupsNoWait() {
        assertEquals(Map.of(), wait.await(Map.of(), watch, APPLY, results, Map.of()));
        assertEquals(List.of(), progress);
        assertEquals(0, instance.asked(GROUP));
        assertEquals(Map.of(), results);
    }
}
