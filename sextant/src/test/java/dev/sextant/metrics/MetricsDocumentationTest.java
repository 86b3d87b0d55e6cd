package dev.sextant.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every meter Sextant registers is in {@code docs/metrics.md} under its Prometheus name. Every public method of
 * {@link SextantMetrics} is called once (each registers its meter), so a new meter fails this test until it is
 * documented; {@link BuildInfo} and {@link ProcessMemory} (on files that give both its gauges) are bound too.
 */
class MetricsDocumentationTest {

    private static final Path DOC = Path.of(System.getProperty("basedir", "."), "..", "docs", "metrics.md");

    @Test
    void everyRegisteredMeterIsDocumented(@TempDir Path dir) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SextantMetrics metrics = new SextantMetrics(registry);
        for (Method method : SextantMetrics.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(method.getModifiers()) || method.getName().equals("registry")) {
                continue;
            }
            Class<?>[] types = method.getParameterTypes();
            Object[] args = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                args[i] = argument(types[i]);
            }
            method.invoke(metrics, args);
        }
        new BuildInfo("0.1.0", "unknown", "4.4.0").bindTo(registry);
        Files.writeString(dir.resolve("status"), "VmRSS:\t 1024 kB\n");
        Files.writeString(dir.resolve("cgroup"), "0::/\n");
        Files.writeString(dir.resolve("memory.max"), "1073741824\n");
        new ProcessMemory(dir, dir).bindTo(registry);
        TreeSet<String> families = new TreeSet<>();
        Matcher m = Pattern.compile("^# TYPE (sextant_[a-z_]+|process_resident_memory_bytes) ", Pattern.MULTILINE)
                .matcher(registry.scrape());
        while (m.find()) {
            families.add(m.group(1));
        }
        assertTrue(families.size() > 20, "the scrape lists Sextant's meters: " + families);
        String doc = Files.readString(DOC);
        List<String> missing = new ArrayList<>();
        for (String family : families) {
            // a counter's TYPE line may name it with or without the _total its samples carry
            String base = family.endsWith("_total") ? family.substring(0, family.length() - 6) : family;
            if (!doc.contains("`" + base + "`") && !doc.contains("`" + base + "_total`")) {
                missing.add(family);
            }
        }
        assertEquals(List.of(), missing, "meters missing from docs/metrics.md");
    }

    private static Object argument(Class<?> type) {
        if (type == GroupKind.class) {
            return GroupKind.CONSUMER;
        }
        if (type == Reason.class) {
            return Reason.GROUP_ACTIVE;
        }
        if (type == String.class) {
            return "x";
        }
        if (type == int.class) {
            return 1;
        }
        if (type == long.class) {
            return 1L;
        }
        if (type == DoubleSupplier.class) {
            return (DoubleSupplier) () -> 1.0;
        }
        if (type == BooleanSupplier.class) {
            return (BooleanSupplier) () -> true;
        }
        if (type == LongSupplier.class) {
            return (LongSupplier) () -> 1L;
        }
        throw new IllegalArgumentException("no test argument for " + type + ": add one");
    }
}
