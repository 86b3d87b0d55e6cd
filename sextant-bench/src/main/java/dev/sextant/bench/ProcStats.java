package dev.sextant.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * CPU time and peak resident memory of a process, from Linux's {@code /proc/<pid>/stat} (utime + stime, in clock
 * ticks) and {@code /proc/<pid>/status} ({@code VmHWM}, the resident-set high-water mark).
 */
final class ProcStats {

    private static final long CLOCK_TICKS = clockTicks();

    private ProcStats() {
    }

    /** One reading; {@code cpuSeconds < 0} when the process is gone or this is not Linux. */
    record Sample(long nanoTime, double cpuSeconds, double peakRssMb) {
    }

    static Sample sample(long pid) {
        long now = System.nanoTime();
        try {
            String stat = Files.readString(Paths.get("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
            double cpu = cpuSeconds(stat, CLOCK_TICKS);
            double hwm = -1;
            for (String line : Files.readAllLines(Paths.get("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    hwm = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
            return new Sample(now, cpu, hwm);
        } catch (IOException | RuntimeException e) {
            return new Sample(now, -1, -1);
        }
    }

    /**
     * utime + stime from a {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses and may
     * contain spaces, so fields are counted after the last ')': utime and stime are fields 14 and 15.
     */
    static double cpuSeconds(String stat, long ticksPerSecond) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // fields[0] is field 3 (state); utime is field 14 -> index 11
        long utime = Long.parseLong(fields[11]);
        long stime = Long.parseLong(fields[12]);
        return (utime + stime) / (double) ticksPerSecond;
    }

    /** The 1-minute load average, or -1. */
    static double loadAverage1m() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder(List.of("getconf", "CLK_TCK")).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
