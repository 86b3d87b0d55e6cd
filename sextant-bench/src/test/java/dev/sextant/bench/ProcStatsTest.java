package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcStatsTest {

    @Test
    void cpuSecondsCountsFieldsAfterTheCommandEvenWithSpacesInIt() {
        String stat = "1234 (java (main) x) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 40 0 1000 "
                + "1000000 5000 18446744073709551615";
        assertEquals(3.0, ProcStats.cpuSeconds(stat, 100));
    }

    @Test
    void readsThisProcess() {
        ProcStats.Sample s = ProcStats.sample(ProcessHandle.current().pid());
        if (Files.exists(Path.of("/proc/self/stat"))) {
            assertTrue(s.cpuSeconds() > 0);
            assertTrue(s.peakRssMb() > 0);
        }
    }

    @Test
    void requestCountsAreSummedOverMatchingClients(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("requests.tsv");
        Files.writeString(file, "a|checkpoint-target-admin\t10\nb|checkpoint-source-admin\t99\nc-target-admin\t5\n");
        assertEquals(15, RequestCountingReporter.read(file, "target-admin"));
        assertEquals(-1, RequestCountingReporter.read(dir.resolve("missing"), "x"));
    }
}
