package dev.sextant.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The demo, start to finish, on its own clusters: every group resumes on the mirror with nothing lost. */
class DemoIT {

    @Test
    void failsOverWithNoRecordLost() throws Exception {
        StringWriter text = new StringWriter();
        long started = System.nanoTime();
        List<FailoverDemo.Resumption> report = new FailoverDemo(new PrintWriter(text, true))
                .run(Duration.ofSeconds(10), new CountDownLatch(1)); // a workload long enough for 3 groups to commit
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        System.out.println(text);
        System.out.println("demo took " + seconds + " s");

        assertFalse(report.isEmpty(), text.toString());
        assertEquals(3, report.stream().map(FailoverDemo.Resumption::group).distinct().count(), "3 groups resumed");
        for (FailoverDemo.Resumption r : report) {
            assertEquals(0, r.lost(), "lost records: " + r);
            // replay is bounded by the spacing of the syncs MirrorMaker 2 actually emitted, which widens beyond
            // offset.lag.max when it falls behind (a loaded machine); ConsumerGroupSyncIT checks the bound itself
        }
        assertTrue(text.toString().contains("records lost: 0"), text.toString());
        assertTrue(seconds < 180, "the demo finishes in under 3 minutes: " + seconds + " s");
    }
}
