package dev.sextant.acl;

import dev.sextant.acl.RequiredAcl.Cluster;
import java.time.Clock;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authorization errors a cluster answered recently, so that a missing ACL shows as what it is (in the log, once
 * per resource a minute, and in {@code /health/ready}) instead of as a sync that silently stalls. Positions refused
 * this way stay pending and are applied once the ACL is granted; nothing is dropped.
 *
 * <p>A denial counts for {@link #WINDOW_MS} after it was last seen, or until a write of the same group succeeds.
 * Thread-safe.
 */
public final class AccessDenials {

    private static final Logger log = LoggerFactory.getLogger(AccessDenials.class);
    static final long WINDOW_MS = 60_000;

    private record Denial(String text, long lastSeenMs) {
    }

    private final Clock clock;
    private final Map<String, Denial> recent = new ConcurrentHashMap<>();
    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();

    public AccessDenials(Clock clock) {
        this.clock = clock;
    }

    /** The Kafka authorization error in {@code error}'s cause chain. */
    public static Optional<AuthorizationException> authorization(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthorizationException a) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** What was denied, in words an operator can grant: "Read on group 'billing'". */
    public static String describe(AuthorizationException e, String group) {
        if (e instanceof GroupAuthorizationException g) {
            String id = g.groupId() != null ? g.groupId() : group;
            return "group " + (id == null ? "" : "'" + id + "' ") + "(Sextant needs Read and Describe on the groups "
                    + "it reads or writes)";
        }
        if (e instanceof TopicAuthorizationException t) {
            Set<String> topics = t.unauthorizedTopics();
            String which = topics.isEmpty() ? "topics" : "topic" + (topics.size() == 1 ? " " : "s ")
                    + topics.stream().sorted().map(n -> "'" + n + "'").collect(Collectors.joining(", "));
            return which + (group == null ? "" : " (offsets of group '" + group + "'; Sextant needs Read and "
                    + "Describe on the topics whose offsets it reads or writes)");
        }
        if (e instanceof TransactionalIdAuthorizationException) {
            return "transactional id (Kafka Streams' exactly-once: Write and Describe on the transactional-id prefix)";
        }
        if (e instanceof ClusterAuthorizationException) {
            return "cluster operation";
        }
        return String.valueOf(e.getMessage());
    }

    /** Records that {@code cluster} refused an operation with {@code error} (for {@code group}, when there is one). */
    public void denied(Cluster cluster, AuthorizationException error, String group) {
        String text = "not authorized on the " + cluster.label() + " cluster: " + describe(error, group) + ": "
                + error.getMessage();
        long now = clock.millis();
        recent.put(cluster + " " + (group != null ? "group " + group : describe(error, null)),
                new Denial(text, now));
        // one line a minute per kind of refusal, however many groups it hits
        String kind = cluster + " " + error.getClass().getSimpleName();
        Long before = lastLogged.get(kind);
        if (before == null || now - before >= WINDOW_MS) {
            lastLogged.put(kind, now);
            log.atError().addKeyValue("group", group).log("{}. Positions stay pending and are applied once it is "
                    + "granted; bin/sextant config acls -c <file> prints every ACL Sextant needs.", text);
        }
    }

    /** {@code group} was written on {@code cluster}: what was refused for it before is granted now. */
    public void succeeded(Cluster cluster, String group) {
        if (!recent.isEmpty()) {
            recent.remove(cluster + " group " + group);
        }
    }

    /** The denials of the last minute, for {@code /health/ready}; empty when there were none. */
    public Optional<String> problem() {
        long oldest = clock.millis() - WINDOW_MS;
        recent.values().removeIf(d -> d.lastSeenMs() < oldest);
        return recent.values().stream().max(Comparator.comparingLong(Denial::lastSeenMs))
                .map(d -> d.text() + (recent.size() > 1 ? " (and " + (recent.size() - 1) + " more)" : "")
                        + "; bin/sextant config acls prints the ACLs Sextant needs");
    }
}
