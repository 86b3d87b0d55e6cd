package dev.sextant.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM and process meters a platform team's dashboards expect next to the application's own (Micrometer's
 * binders: memory, GC, threads, class loading, CPU, uptime, file descriptors), and the process's resident memory
 * against its container's limit ({@link ProcessMemory}). Closing releases the GC listener.
 */
public final class ProcessMeters implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    public ProcessMeters(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new ProcessMemory().bindTo(registry);
    }

    @Override
    public void close() {
        gc.close();
    }
}
