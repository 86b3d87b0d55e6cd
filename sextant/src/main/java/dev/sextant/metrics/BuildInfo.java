package dev.sextant.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code sextant_build_info}: always 1, its labels say what runs (Prometheus' own {@code prometheus_build_info}
 * convention), so a dashboard or an alert can join on the version, e.g. to see a rolling upgrade through.
 */
public final class BuildInfo implements MeterBinder {

    private final String version;
    private final String revision;
    private final String kafkaVersion;
    private final String javaVersion;

    /**
     * @param revision the Git commit of the build, or "unknown"
     * @param kafkaVersion the Kafka client library Sextant was built with
     */
    public BuildInfo(String version, String revision, String kafkaVersion) {
        this(version, revision, kafkaVersion, System.getProperty("java.version", "unknown"));
    }

    BuildInfo(String version, String revision, String kafkaVersion, String javaVersion) {
        this.version = version;
        this.revision = revision;
        this.kafkaVersion = kafkaVersion;
        this.javaVersion = javaVersion;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("sextant.build.info", () -> 1)
                .description("Always 1; the labels name the Sextant version, the commit it was built from, the Java "
                        + "runtime and the Kafka client library")
                .tags("version", version, "revision", revision, "java_version", javaVersion,
                        "kafka_version", kafkaVersion)
                .register(registry);
    }
}
