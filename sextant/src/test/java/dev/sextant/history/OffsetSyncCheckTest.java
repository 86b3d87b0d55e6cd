package dev.sextant.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.history.OffsetSyncCheck.LogEnds;
import dev.sextant.history.OffsetSyncCheck.Verdict;
import dev.sextant.translate.OffsetSyncPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OffsetSyncCheckTest {

    /** Newest sync in the history: 300 -> 1200 (or none); logs: source end 1000, destination end 2000. */
    @ParameterizedTest(name = "{0}: U={1} D={2} (source end {3}, destination end {4}, fresh {5}) -> {6}")
    @CsvSource({
            "'genuine', 400, 1300, 1000, 2000, true, ACCEPT",
            "'genuine, older ends cover it', 400, 1300, 1000, 2000, false, ACCEPT",
            "'negative upstream', -1, 1300, 1000, 2000, true, REJECT",
            "'negative downstream', 400, -9, 1000, 2000, false, REJECT",
            "'beyond the source log', 5000, 1300, 1000, 2000, true, REJECT",
            "'older ends do not cover it', 5000, 1300, 1000, 2000, false, WAIT_FOR_LOG_ENDS",
            "'beyond the destination log', 400, 9999, 1000, 2000, true, REJECT",
            "'no such source partition', 400, 1300, -1, 2000, true, REJECT",
            "'no such mirror partition', 400, 1300, 1000, -1, true, REJECT",
            "'a partition not known yet', 400, 1300, -1, 2000, false, WAIT_FOR_LOG_ENDS",
            "'read again after a restart', 200, 1100, 1000, 2000, true, ALREADY_KNOWN",
            "'copied again after a restart of MirrorMaker 2', 200, 1900, 1000, 2000, true, REMIRRORED",
            "'copied again, ends not fresh', 200, 1900, 1000, 2000, false, WAIT_FOR_LOG_ENDS",
            "'the mirror went back', 400, 1100, 1000, 2000, true, REWIND_AND_ACCEPT",
            "'went back, older ends: wait (the fetch reads its id)', 400, 1100, 1000, 2000, false, WAIT_FOR_LOG_ENDS",
            "'the same upstream, downstream back', 300, 900, 1000, 2000, true, REWIND_AND_ACCEPT",
            "'backwards, log now short', 10, 1900, 150, 2000, true, RESET_AND_ACCEPT",
            "'backwards, ends not fresh', 10, 1900, 150, 2000, false, WAIT_FOR_LOG_ENDS",
            "'at the log end exactly', 1000, 2000, 1000, 2000, true, ACCEPT",
    })
    void decides(String name, long upstream, long downstream, long sourceEnd, long destinationEnd, boolean fresh,
                 Verdict expected) {
        OffsetSyncPoint newest = new OffsetSyncPoint("orders", 0, 300, 1200);
        assertEquals(expected, OffsetSyncCheck.check(upstream, downstream, newest,
                new LogEnds(sourceEnd, destinationEnd, fresh), "source.orders-0").verdict(), name);
    }

    @ParameterizedTest
    @CsvSource({"0, 0, WAIT_FOR_LOG_ENDS", "-1, 0, REJECT"})
    void withoutAnyEndsOnlyTheObviousIsDecided(long upstream, long downstream, Verdict expected) {
        assertEquals(expected, OffsetSyncCheck.check(upstream, downstream, null, null, "source.orders-0").verdict());
    }
}
