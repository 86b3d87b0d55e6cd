package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchSettingsTest {

    /** The settings of a plain {@code bench/run}. */
    static BenchSettings settings(String... args) {
        BenchMain main = new BenchMain();
        new CommandLine(main).parseArgs(args);
        return main.settings();
    }

    @Test
    void aFullRunIsSequentialWithTenPartitionsAndTwoThreadCounts() {
        BenchSettings s = settings();
        assertEquals(BenchSettings.SEQUENTIAL, s.mode());
        assertTrue(s.sequential());
        assertEquals(10, s.partitions());
        assertEquals(List.of(1, 2), s.sextantThreadCounts());
        assertEquals(1, s.sextantThreads());
        assertEquals(List.of("sextant", "mm2-1s", "mm2-default"), s.systemsInOrder());
        assertTrue(s.sextantJvmOptions().contains("-Xmx256m"), s.sextantJvmOptions().toString());
        assertTrue(s.childJvmOptions().contains("-Xmx512m"), s.childJvmOptions().toString());
    }

    @Test
    void quickIsSideBySideWithFourPartitionsUnlessTold() {
        BenchSettings quick = settings("--quick");
        assertEquals(BenchSettings.SIDE_BY_SIDE, quick.mode());
        assertEquals(4, quick.partitions());
        assertEquals(List.of("mm2-1s", "sextant"), quick.systemsInOrder());
        BenchSettings told = settings("--quick", "--mode", "sequential", "--sextant-threads", "2,1",
                "--sextant-heap", "1g", "--heap", "768m");
        assertEquals(BenchSettings.SEQUENTIAL, told.mode());
        assertEquals(List.of("sextant", "mm2-1s"), told.systemsInOrder());
        assertEquals(2, told.sextantThreads()); // the sync scenario uses the first count
        assertEquals(1, BenchMain.primaryThreads(told.sextantThreadCounts())); // the targets the 1-thread run
        assertTrue(told.sextantJvmOptions().contains("-Xmx1g"));
        assertTrue(told.childJvmOptions().contains("-Xmx768m"));
    }

    @Test
    void rejectsAnUnknownModeAndBadThreadCounts() {
        assertThrows(CommandLine.ParameterException.class, () -> settings("--mode", "parallel"));
        assertThrows(CommandLine.ParameterException.class, () -> settings("--sextant-threads", "0"));
        assertThrows(CommandLine.ParameterException.class, () -> settings("--sextant-threads", "1,1"));
    }

    @Test
    void theSettingsDumpKeepsItsFieldsAndAddsTheNewOnes() {
        Map<String, Object> dump = Report.json().convertValue(settings(),
                new TypeReference<Map<String, Object>>() { });
        assertEquals("sequential", dump.get("mode"));
        assertEquals(1, dump.get("sextant_threads"));
        assertEquals(List.of(1, 2), dump.get("sextant_thread_counts"));
        assertEquals("512m", dump.get("child_heap"));
        assertEquals("256m", dump.get("sextant_heap"));
    }
}
