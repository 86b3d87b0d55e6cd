package dev.sextant.state;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * The default memory budget of the RocksDB stores ({@code state.memory.bytes} = 0): an eighth of the memory the
 * process may use (the container's limit where there is one, as the JVM reads it), within 64 MiB and 1 GiB. With a
 * 1 GiB container and half of it for the heap, that leaves the stores 128 MiB and the JVM's own memory (metaspace,
 * threads, buffers) the rest.
 */
public final class StoreMemoryBudget {

    static final long MIN_BYTES = 64L << 20;
    static final long MAX_BYTES = 1L << 30;
    private static final int SHARE = 8;

    private StoreMemoryBudget() {
    }

    /** The default budget on this machine or container. */
    public static long defaultBytes() {
        long total = ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getTotalMemorySize() : 0;
        return of(total);
    }

    /** The default budget for a process that may use {@code totalBytes} (0 when not known: the minimum). */
    static long of(long totalBytes) {
        return Math.max(MIN_BYTES, Math.min(MAX_BYTES, totalBytes / SHARE));
    }
}
