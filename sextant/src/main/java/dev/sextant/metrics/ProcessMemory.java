package dev.sextant.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The process's resident memory ({@code process_resident_memory_bytes}, the name Prometheus' own clients give it) and
 * the memory limit of its container ({@code sextant_memory_limit_bytes}), read from Linux's {@code /proc} and cgroup
 * files at each scrape: the heap is half of what the container gets, and RocksDB and the JVM's own memory live beside
 * it, so the JVM's meters alone do not tell how near the OOM killer a pod is. Each gauge is registered only where
 * its file answers when bound: not on other systems, and no limit gauge when the cgroup sets none.
 */
public final class ProcessMemory implements MeterBinder {

    /** cgroup v1 writes "no limit" as the largest page-aligned count of bytes; anything this large is none. */
    private static final long V1_UNLIMITED = 1L << 62;

    private final Path procSelf;
    private final Path cgroupRoot;

    public ProcessMemory() {
        this(Path.of("/proc/self"), Path.of("/sys/fs/cgroup"));
    }

    /**
     * @param procSelf where {@code /proc/self} is ({@code status}, {@code cgroup})
     * @param cgroupRoot where the cgroup file system is mounted
     */
    ProcessMemory(Path procSelf, Path cgroupRoot) {
        this.procSelf = procSelf;
        this.cgroupRoot = cgroupRoot;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        // suppliers, not Gauge.builder(name, this, ...): a gauge holds its object weakly, and nothing else holds this
        if (residentBytes().isPresent()) {
            Gauge.builder("process.resident.memory", () -> orNaN(residentBytes()))
                    .baseUnit("bytes")
                    .description("Resident memory of the process (VmRSS): heap, RocksDB and the JVM's own memory")
                    .register(registry);
        }
        if (limitBytes().isPresent()) {
            Gauge.builder("sextant.memory.limit", () -> orNaN(limitBytes()))
                    .baseUnit("bytes")
                    .description("Memory limit of the process's cgroup (its container's limit); absent when unlimited")
                    .register(registry);
        }
    }

    /** VmRSS of {@code /proc/self/status}; empty where there is no such file. */
    public OptionalLong residentBytes() {
        return read(procSelf.resolve("status")).map(ProcessMemory::residentBytes).orElse(OptionalLong.empty());
    }

    /**
     * The lowest memory limit on the way from this process's cgroup up to the root of the mounted hierarchy (a
     * container's own cgroup may say "max" under a parent that limits it); cgroup v2 first, then v1. Empty when none
     * is set, or on a system without cgroups.
     */
    public OptionalLong limitBytes() {
        List<String> groups = read(procSelf.resolve("cgroup")).map(String::lines).map(Stream::toList).orElse(List.of());
        for (String line : groups) {
            // hierarchy-ID:controllers:path; v2's unified hierarchy is "0::<path>"
            String[] fields = line.split(":", 3);
            if (fields.length == 3 && fields[0].equals("0") && fields[1].isEmpty()) {
                OptionalLong limit = lowest(cgroupRoot, fields[2], "memory.max");
                if (limit.isPresent()) {
                    return limit;
                }
            }
        }
        for (String line : groups) {
            String[] fields = line.split(":", 3);
            if (fields.length == 3 && List.of(fields[1].split(",")).contains("memory")) {
                return lowest(cgroupRoot.resolve("memory"), fields[2], "memory.limit_in_bytes");
            }
        }
        return OptionalLong.empty();
    }

    /** The bytes of the {@code VmRSS:} line of a {@code /proc/<pid>/status} text (given in kB). */
    static OptionalLong residentBytes(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] fields = line.substring("VmRSS:".length()).trim().split("\\s+");
                try {
                    long value = Long.parseLong(fields[0]);
                    return OptionalLong.of(fields.length > 1 && fields[1].equalsIgnoreCase("kB") ? value * 1024
                            : value);
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    /** A cgroup memory limit file's content: a count of bytes, or "max" (v2) or a huge count (v1) for none. */
    static OptionalLong limit(String content) {
        String value = content.trim();
        if (value.isEmpty() || value.equals("max")) {
            return OptionalLong.empty();
        }
        try {
            long bytes = Long.parseLong(value);
            return bytes <= 0 || bytes >= V1_UNLIMITED ? OptionalLong.empty() : OptionalLong.of(bytes);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The lowest limit in {@code file} of the cgroup {@code path} and its ancestors under {@code mount}. In a
     * container with its own cgroup namespace the path is "/" and the mount is its own cgroup; without one the path
     * may name a cgroup the mount does not hold, and the mount's root file is what applies.
     */
    private static OptionalLong lowest(Path mount, String path, String file) {
        OptionalLong lowest = OptionalLong.empty();
        Path group = mount.resolve(path.replaceFirst("^/+", "")).normalize();
        if (!group.startsWith(mount)) {
            group = mount;
        }
        for (Path dir = group; dir != null && dir.startsWith(mount); dir = dir.getParent()) {
            OptionalLong limit = read(dir.resolve(file)).map(ProcessMemory::limit).orElse(OptionalLong.empty());
            if (limit.isPresent() && (lowest.isEmpty() || limit.getAsLong() < lowest.getAsLong())) {
                lowest = limit;
            }
        }
        return lowest;
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // not Linux, or no such cgroup file: no gauge
        }
    }

    private static double orNaN(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : Double.NaN;
    }
}
