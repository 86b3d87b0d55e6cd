package dev.sextant.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A growable list of doubles with the statistics the report needs. Thread-safe. */
final class Samples {

    private double[] values = new double[1024];
    private int size;

    synchronized void add(double value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    synchronized int size() {
        return size;
    }

    /** A sorted copy. */
    synchronized double[] sorted() {
        double[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** The {@code q}-quantile (0..1) by the nearest-rank method; NaN when empty. */
    double quantile(double q) {
        return quantile(sorted(), q);
    }

    double max() {
        double[] s = sorted();
        return s.length == 0 ? Double.NaN : s[s.length - 1];
    }

    double mean() {
        double[] s = sorted();
        if (s.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (double v : s) {
            sum += v;
        }
        return sum / s.length;
    }

    /**
     * Latency statistics over resolved samples and censored ones (still unresolved at the end, counted at their age
     * then: a lower bound). A statistic is itself a lower bound when it is at or above the smallest censored sample.
     */
    record Censored(double p50, double p99, double max, boolean p50Lower, boolean p99Lower, boolean maxLower,
                    double[] sorted) {

        static Censored of(Samples resolved, Samples censored) {
            double[] a = resolved.sorted();
            double[] c = censored.sorted();
            double[] all = Arrays.copyOf(a, a.length + c.length);
            System.arraycopy(c, 0, all, a.length, c.length);
            Arrays.sort(all);
            double minCensored = c.length == 0 ? Double.POSITIVE_INFINITY : c[0];
            double p50 = quantile(all, 0.5);
            double p99 = quantile(all, 0.99);
            double max = all.length == 0 ? Double.NaN : all[all.length - 1];
            return new Censored(p50, p99, max, p50 >= minCensored, p99 >= minCensored, max >= minCensored, all);
        }

        List<String> lowerBounds() {
            List<String> out = new ArrayList<>();
            if (p50Lower) {
                out.add("p50");
            }
            if (p99Lower) {
                out.add("p99");
            }
            if (maxLower) {
                out.add("max");
            }
            return out;
        }
    }

    /**
     * Nearest-rank quantile of sorted values: the smallest value with at least {@code q} of the values at or
     * below it ({@code q=0.5} of 1..4 is 2, {@code q=0.99} of 1..100 is 99, {@code q=1} is the max).
     */
    static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }
}
