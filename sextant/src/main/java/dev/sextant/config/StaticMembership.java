package dev.sextant.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The {@code group.instance.id} an instance gets when the operator sets none: Kafka Streams' static membership, so that
 * an instance restarted after a crash takes its tasks back at once instead of after {@code session.timeout.ms} (45 s by
 * default), during which none of the groups on its tasks are synced. Kafka Streams appends the stream thread's index.
 *
 * <p>The id must be stable across restarts of one instance and unique among the live instances of an application:
 * the host's name (the pod name in a StatefulSet) and a checksum of the state directory's absolute path. Two live
 * instances cannot share a host and a state directory (Kafka Streams locks it), so no two live instances share an
 * id; an instance restarted on the same host and directory, its state kept or wiped, has the same one.
 *
 * <p>Trade-off: a static member that stops without leaving (a crash, a node lost) keeps its tasks until
 * {@code session.timeout.ms}, as a dynamic one does; a planned stop leaves the group. Set
 * {@code streams.group.instance.id} to choose the id, or to an empty value for dynamic membership.
 */
final class StaticMembership {

    private static final int MAX_HOST_CHARS = 100;

    private StaticMembership() {
    }

    /** The default id for an instance whose state directory is {@code stateDir}. */
    static String defaultInstanceId(String stateDir) {
        CRC32 crc = new CRC32();
        crc.update(Path.of(stateDir).toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
        return "sextant-" + host() + "-" + Long.toHexString(crc.getValue());
    }

    private static String host() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        }
        String cleaned = host.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
        return cleaned.length() > MAX_HOST_CHARS ? cleaned.substring(0, MAX_HOST_CHARS) : cleaned;
    }
}
