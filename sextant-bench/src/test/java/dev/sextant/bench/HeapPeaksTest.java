package dev.sextant.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HeapPeaksTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void keepsTheLargestOfEverySampleAndTheLatestUse() {
        HeapPeaks peaks = new HeapPeaks();
        peaks.observe(100 * MIB, 256 * MIB, 0, 40 * MIB);
        peaks.observe(180 * MIB, 256 * MIB, 70 * MIB, 30 * MIB);
        peaks.observe(90 * MIB, 256 * MIB, 50 * MIB, 60 * MIB);
        assertEquals(90 * MIB, peaks.used());
        assertEquals(180 * MIB, peaks.peakUsed());
        assertEquals(70 * MIB, peaks.peakAfterGc());
        assertEquals(60 * MIB, peaks.peakAfterYoungGc());
        assertEquals(256 * MIB, peaks.max());
    }

    @Test
    void samplesThisJvm() {
        HeapPeaks peaks = new HeapPeaks();
        peaks.sample();
        assertTrue(peaks.used() > 0);
        assertTrue(peaks.peakUsed() >= peaks.used());
        assertEquals(Runtime.getRuntime().maxMemory() > 0, peaks.max() > 0);
    }

    @Test
    void theChildReadsTheSnapshotInMibAndNoOldGenerationCollectionAsUnknown() throws Exception {
        ObjectMapper json = new ObjectMapper();
        SextantChild.Heap heap = SextantChild.Heap.of(json.readTree("{\"peakHeapUsedBytes\":" + 200 * MIB
                + ",\"peakHeapAfterGcBytes\":0,\"peakHeapAfterYoungGcBytes\":" + 64 * MIB + ",\"heapMaxBytes\":"
                + 256 * MIB + "}"));
        assertEquals(200.0, heap.peakUsedMb());
        assertTrue(Double.isNaN(heap.peakAfterGcMb()));
        assertEquals(64.0, heap.peakAfterYoungGcMb());
        assertEquals(256.0, heap.maxMb());
        assertEquals(SextantChild.Heap.UNKNOWN, SextantChild.Heap.of(json.readTree("{\"commitsRead\":5}")));
        assertEquals(SextantChild.Heap.UNKNOWN, SextantChild.Heap.of(null));
    }
}
