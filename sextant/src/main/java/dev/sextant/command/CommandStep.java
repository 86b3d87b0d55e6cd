package dev.sextant.command;

import dev.sextant.config.SextantConfig;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Which cluster a command is working with, and what for, so that a Kafka client's failure reaches the operator naming
 * both: "reading the source cluster (bootstrap a:9092) to read the groups cut over so far: Timeout expired while
 * fetching topic metadata" instead of the client's sentence alone, which names neither the cluster nor the step.
 *
 * <p>Invariants: {@link #named} keeps the failure as the cause (its type and stack trace); an authorization error is
 * never wrapped, since the command turns it into exit 3 naming the ACL; before the first step it names nothing and
 * hands the failure back as it is. Not thread-safe: one command, one thread.
 */
public final class CommandStep {

    /** One of the two clusters of the configuration. */
    public enum Cluster {
        SOURCE("source"), DESTINATION("destination");

        private final String word;

        Cluster(String word) {
            this.word = word;
        }
    }

    private final SextantConfig config;
    private String verb;
    private Cluster cluster;
    private String step;

    CommandStep(SextantConfig config) {
        this.config = config;
    }

    /** From now on the command reads {@code cluster} to do {@code step} ("read the groups cut over so far"). */
    public void reading(Cluster cluster, String step) {
        at("reading", cluster, step);
    }

    /** From now on the command writes to {@code cluster} to do {@code step} ("record the groups as cut over"). */
    public void writing(Cluster cluster, String step) {
        at("writing to", cluster, step);
    }

    private void at(String verb, Cluster cluster, String step) {
        this.verb = verb;
        this.cluster = cluster;
        this.step = step;
    }

    /** What the command is doing now, as {@link #named} says it, or null before the first step. */
    public String describe() {
        if (cluster == null) {
            return null;
        }
        Object bootstrap = (cluster == Cluster.SOURCE ? config.sourceClientConfig() : config.destinationClientConfig())
                .get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        return verb + " the " + cluster.word + " cluster (bootstrap " + bootstrap + ") to " + step;
    }

    /**
     * {@code failure} naming the cluster and the step it happened in, when it is a Kafka client's failure (or one of
     * Sextant's own reads of a cluster, which fail as {@link IllegalStateException}); anything else, and an
     * authorization error, as it is.
     */
    public RuntimeException named(RuntimeException failure) {
        String where = describe();
        if (where == null || failure instanceof AuthorizationException
                || !(failure instanceof KafkaException || failure instanceof IllegalStateException)) {
            return failure;
        }
        String cause = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        return new IllegalStateException(where + ": " + cause, failure);
    }
}
