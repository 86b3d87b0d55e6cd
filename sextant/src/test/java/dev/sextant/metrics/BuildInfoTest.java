package dev.sextant.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class BuildInfoTest {

    @Test
    void buildInfoIsOneWithWhatRunsAsLabels() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BuildInfo("0.1.0", "15fc7f1e9b34092d8506174ef9090861d823f761", "4.4.0", "17.0.13").bindTo(registry);
        String scrape = registry.scrape();
        assertTrue(scrape.contains("# TYPE sextant_build_info gauge"), scrape);
        assertTrue(scrape.contains("sextant_build_info{java_version=\"17.0.13\",kafka_version=\"4.4.0\","
                + "revision=\"15fc7f1e9b34092d8506174ef9090861d823f761\",version=\"0.1.0\"} 1\n"), scrape);
    }

    @Test
    void theRunningJavaIsTheDefault() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BuildInfo("0.1.0", "unknown", "4.4.0").bindTo(registry);
        assertTrue(registry.scrape().contains("java_version=\"" + System.getProperty("java.version") + "\""),
                registry.scrape());
    }
}
