package dev.sextant.bench;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Set;

/**
 * Heap high-water marks of this JVM, sampled by {@link SextantProbeMain} at every snapshot:
 * <ul>
 *   <li>peak heap used ({@code MemoryMXBean} heap used, the largest sample: garbage included);</li>
 *   <li>peak old generation after GC (the "Old Gen" pool's {@code getCollectionUsage()}, the largest sample): the
 *       live set as G1 sees it, exact after a full collection, with the garbage of the old regions a mixed
 *       collection left alone after a mixed one. G1 updates it only after a collection of the old generation, not
 *       after a young one, so it stays 0 in a run that never needed one;</li>
 *   <li>peak heap after a young GC (all pools after the young collector's last GC, the largest sample): an upper
 *       bound of the live set (dead old objects included), which exists even when the old generation was never
 *       collected;</li>
 *   <li>the heap's max (-Xmx).</li>
 * </ul>
 * Thread-safe: the probe's writer thread and its main thread both sample.
 */
final class HeapPeaks {

    private long peakUsed;
    private long peakAfterGc;
    private long peakAfterYoungGc;
    private long max = -1;
    private long used;

    /** Takes one sample of this JVM. */
    synchronized void sample() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long oldAfterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage collected = pool.getCollectionUsage();
            if (pool.getName().contains("Old Gen") && collected != null) {
                oldAfterGc = Math.max(oldAfterGc, collected.getUsed());
            }
        }
        observe(heap.getUsed(), heap.getMax(), oldAfterGc, afterYoungGc());
    }

    /** One observation (the figures of one sample, in bytes); the peaks keep the largest. */
    synchronized void observe(long heapUsed, long heapMax, long oldGenAfterGc, long heapAfterYoungGc) {
        used = heapUsed;
        max = heapMax;
        peakUsed = Math.max(peakUsed, heapUsed);
        peakAfterGc = Math.max(peakAfterGc, oldGenAfterGc);
        peakAfterYoungGc = Math.max(peakAfterYoungGc, heapAfterYoungGc);
    }

    synchronized long used() {
        return used;
    }

    synchronized long peakUsed() {
        return peakUsed;
    }

    /** 0 while the old generation was never collected. */
    synchronized long peakAfterGc() {
        return peakAfterGc;
    }

    synchronized long peakAfterYoungGc() {
        return peakAfterYoungGc;
    }

    /** -Xmx in bytes, -1 before the first sample or when undefined. */
    synchronized long max() {
        return max;
    }

    /** The heap after the young collector's last GC (its heap pools), or 0 before the first one. */
    private static long afterYoungGc() {
        // the GC's figures cover non-heap pools too (Metaspace, code cache): only the heap's count
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().contains("Young") && gc instanceof GarbageCollectorMXBean sun) {
                GcInfo info = sun.getLastGcInfo();
                if (info != null) {
                    return info.getMemoryUsageAfterGc().entrySet().stream()
                            .filter(e -> heapPools.contains(e.getKey()))
                            .mapToLong(e -> e.getValue().getUsed()).sum();
                }
            }
        }
        return 0;
    }
}
