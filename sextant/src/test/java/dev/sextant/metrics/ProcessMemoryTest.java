package dev.sextant.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Resident memory and the container's limit, from /proc and cgroup files as Linux writes them, into the scrape. */
class ProcessMemoryTest {

    private static final String STATUS = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            VmPeak:\t 5431100 kB
            VmSize:\t 5365564 kB
            VmHWM:\t  412220 kB
            VmRSS:\t  402132 kB
            RssAnon:\t  371008 kB
            Threads:\t54
            """;

    @TempDir
    Path dir;

    @Test
    void residentMemoryIsVmRssInBytes() {
        assertEquals(OptionalLong.of(402132L * 1024), ProcessMemory.residentBytes(STATUS));
        assertEquals(OptionalLong.empty(), ProcessMemory.residentBytes("Name:\tkthreadd\nState:\tS (sleeping)\n"));
    }

    @Test
    void aLimitIsACountOfBytesAndNoLimitIsAbsent() {
        assertEquals(OptionalLong.of(1073741824L), ProcessMemory.limit("1073741824\n"));
        assertEquals(OptionalLong.empty(), ProcessMemory.limit("max\n"));
        // cgroup v1's "unlimited": the largest page-aligned long
        assertEquals(OptionalLong.empty(), ProcessMemory.limit("9223372036854771712\n"));
    }

    @Test
    void cgroupV2InAContainerReadsItsOwnMemoryMax() throws IOException {
        ProcessMemory memory = files("0::/\n", "memory.max", "1073741824\n");
        assertEquals(OptionalLong.of(1073741824L), memory.limitBytes());
        assertEquals(OptionalLong.of(402132L * 1024), memory.residentBytes());
    }

    @Test
    void cgroupV2TakesTheLowestLimitUpTheHierarchy() throws IOException {
        // a pod's cgroup limits, the container's own says max (the kubelet sets both; either may be the lower)
        ProcessMemory memory = files("0::/kubepods/pod1/ctr\n", "kubepods/pod1/ctr/memory.max", "max\n");
        Files.writeString(dir.resolve("cgroup/kubepods/pod1/memory.max"), "536870912\n");
        Files.writeString(dir.resolve("cgroup/kubepods/memory.max"), "8589934592\n");
        assertEquals(OptionalLong.of(536870912L), memory.limitBytes());
    }

    @Test
    void cgroupV1ReadsTheMemoryControllersLimit() throws IOException {
        ProcessMemory memory = files("12:pids:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n",
                "memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
        Files.writeString(dir.resolve("cgroup/memory/memory.limit_in_bytes"), "9223372036854771712\n");
        assertEquals(OptionalLong.of(2147483648L), memory.limitBytes());
    }

    @Test
    void unlimitedOrNotLinuxRegistersNoGauge() throws IOException {
        ProcessMemory unlimited = files("0::/\n", "memory.max", "max\n");
        assertEquals(OptionalLong.empty(), unlimited.limitBytes());
        String scrape = scrape(unlimited);
        assertTrue(scrape.contains("process_resident_memory_bytes 4.11783168E8"), scrape);
        assertFalse(scrape.contains("sextant_memory_limit_bytes"), scrape);

        ProcessMemory nothing = new ProcessMemory(dir.resolve("no-proc"), dir.resolve("no-cgroup"));
        assertEquals("", scrape(nothing).strip());
    }

    @Test
    void bothGaugesAreInThePrometheusScrapeAndFollowTheFiles() throws IOException {
        ProcessMemory memory = files("0::/\n", "memory.max", "1073741824\n");
        String scrape = scrape(memory);
        assertTrue(scrape.contains("# TYPE process_resident_memory_bytes gauge"), scrape);
        assertTrue(scrape.contains("\nprocess_resident_memory_bytes 4.11783168E8\n"), scrape);
        assertTrue(scrape.contains("# TYPE sextant_memory_limit_bytes gauge"), scrape);
        assertTrue(scrape.contains("\nsextant_memory_limit_bytes 1.073741824E9\n"), scrape);
    }

    @Test
    void theGaugesOutliveTheBindersCollection() throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        files("0::/\n", "memory.max", "1073741824\n").bindTo(registry); // as ProcessMeters binds it: kept nowhere
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        String scrape = registry.scrape();
        assertTrue(scrape.contains("\nprocess_resident_memory_bytes 4.11783168E8\n"), scrape);
        assertTrue(scrape.contains("\nsextant_memory_limit_bytes 1.073741824E9\n"), scrape);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void thisProcessHasAResidentMemory() {
        long resident = new ProcessMemory().residentBytes().orElseThrow();
        assertTrue(resident > Runtime.getRuntime().totalMemory() / 4 && resident < 1L << 40, "VmRSS " + resident);
    }

    /** A /proc/self with {@link #STATUS} and {@code cgroup}, and one cgroup file under a cgroup mount. */
    private ProcessMemory files(String cgroup, String file, String content) throws IOException {
        Path proc = Files.createDirectories(dir.resolve("proc/self"));
        Files.writeString(proc.resolve("status"), STATUS);
        Files.writeString(proc.resolve("cgroup"), cgroup);
        Path mount = dir.resolve("cgroup");
        Path limit = mount.resolve(file);
        Files.createDirectories(limit.getParent());
        Files.writeString(limit, content);
        return new ProcessMemory(proc, mount);
    }

    private static String scrape(ProcessMemory memory) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        memory.bindTo(registry);
        return registry.scrape();
    }
}
