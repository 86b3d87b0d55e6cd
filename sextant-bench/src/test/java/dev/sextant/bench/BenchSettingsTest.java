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
        return main.options.settings();
    }

    @Test
    void aFullRunIsSequentialWithTenPartitionsAndTwoThreadCounts() {
        BenchSettings s = settings();
        assertEquals(BenchSettings.SEQUENTIAL, s.mode());
        assertTrue(s.sequential());
        assertEquals(10, s.partitions());
        assertEquals(List.of(1, 2), s.sextantThreadCounts());
        assertEquals(1, s.sextantThreads());
        assertEquals(List.of("sextant", "sextant-interpolation-off", "mm2-1s", "mm2-default"), s.systemsInOrder());
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
    void aFullRunAddsOneHundredThousandGroupsAtTwoPartitionsWithoutMm2AtItsDefault() {
        BenchSettings s = settings();
        assertEquals(List.of(1_000, 10_000, 100_000), s.scales());
        assertEquals(10, s.partitionsAt(1_000));
        assertEquals(10, s.partitionsAt(10_000));
        assertEquals(2, s.partitionsAt(100_000));
        assertEquals(List.of("sextant", "sextant-interpolation-off", "mm2-1s", "mm2-default"),
                s.systemsInOrderAt(10_000));
        assertEquals(List.of("sextant", "sextant-interpolation-off", "mm2-1s"), s.systemsInOrderAt(100_000));
        assertEquals(List.of("mm2-default"), s.systemsLeftOutAt(100_000));
        assertTrue(s.sextantJvmOptions(10_000).contains("-Xmx256m"), s.sextantJvmOptions(10_000).toString());
        assertTrue(s.sextantJvmOptions(100_000).contains("-Xmx512m"), s.sextantJvmOptions(100_000).toString());
        assertEquals(List.of(100, 1_000), settings("--quick").scales()); // quick keeps its own scales
        assertEquals(4, settings("--quick").partitionsAt(1_000));
    }

    @Test
    void aScaleMayGiveItsOwnPartitionCount() {
        BenchSettings s = settings("--quick", "--groups=200x2,300", "--partitions", "6");
        assertEquals(List.of(200, 300), s.scales());
        assertEquals(2, s.partitionsAt(200));
        assertEquals(6, s.partitionsAt(300));
        assertEquals(6, s.partitions());

        BenchSettings large = settings("--groups", "20000x2", "--systems", "sextant,mm2-1s", "--large-systems",
                "sextant,mm2-default", "--large-sextant-heap", "1g");
        assertEquals(List.of("sextant"), large.systemsInOrderAt(20_000)); // of --systems, those also large
        assertTrue(large.sextantJvmOptions(20_000).contains("-Xmx1g"));
        assertEquals(List.of("sextant", "mm2-1s", "mm2-default"),
                settings("--large-systems", "sextant,mm2-1s,mm2-default").systemsInOrderAt(100_000));

        assertThrows(CommandLine.ParameterException.class, () -> settings("--groups=100x0"));
        assertThrows(CommandLine.ParameterException.class, () -> settings("--groups=abc"));
        assertThrows(CommandLine.ParameterException.class, () -> settings("--groups=1000,1000x2"));
        assertThrows(CommandLine.ParameterException.class, () -> settings("--large-systems=mm3"));
    }

    @Test
    void theInitialHeapIsNeverAboveTheMaximum() {
        List<String> small = settings("--heap", "24m").childJvmOptions();
        assertTrue(small.contains("-Xms24m") && small.contains("-Xmx24m"), small.toString());
        assertTrue(settings().childJvmOptions().contains("-Xms64m"));
        assertEquals(1L << 30, BenchSettings.bytes("1g"));
        assertEquals(512L << 20, BenchSettings.bytes("512M"));
        assertEquals(-1, BenchSettings.bytes("lots"));
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
        assertEquals(List.of(1_000, 10_000, 100_000), dump.get("scales"));
        assertEquals(Map.of("1000", 10, "10000", 10, "100000", 2), dump.get("scale_partitions"));
        assertEquals("512m", dump.get("large_sextant_heap"));
        assertEquals(List.of("sextant", "sextant-interpolation-off", "mm2-1s"), dump.get("large_systems"));
    }
}
