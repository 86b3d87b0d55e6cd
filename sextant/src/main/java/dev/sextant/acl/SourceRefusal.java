package dev.sextant.acl;

import dev.sextant.config.SextantConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * What Sextant says when the source cluster refuses it something: what was refused, the ACL that covers it and the
 * {@code kafka-acls} command that grants it, and where the full list is. The check at start and every refusal seen
 * later are phrased here, so the operator reads one wording.
 */
public final class SourceRefusal {

    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(15);

    private final SextantConfig config;

    public SourceRefusal(SextantConfig config) {
        this.config = config;
    }

    /** Stops the start, naming the ACL, when the source refuses what Sextant needs (as far as it can tell ahead). */
    public void verifyAhead() {
        try (Admin admin = Admin.create(config.sourceClientConfig())) {
            // Read on the mirrored topics is not checked: without it proofs keep the bounded rule, nothing stops
            SourceAccessCheck.verify(admin, RequiredAcls.withoutProofReads(config),
                    Principals.guess(config.sourceClientConfig()), CHECK_TIMEOUT);
        }
    }

    /** {@code what} was refused with {@code denied}: the message names the ACL that covers it and how to grant it. */
    public NotAuthorizedException refused(String what, AuthorizationException denied, Throwable cause) {
        String principal = Principals.guess(config.sourceClientConfig());
        Optional<RequiredAcl> covering = RequiredAcls.covering(RequiredAcls.withoutProofReads(config),
                RequiredAcl.Cluster.SOURCE, denied);
        String grant = covering.map(acl -> ". Grant it:\n  " + acl.command(principal)
                + SourceAccessCheck.alternative(List.of(acl)).orElse("")).orElse(".");
        return new NotAuthorizedException(what + ": " + AccessDenials.describe(denied, null) + ": "
                + denied.getMessage() + grant
                + "\nbin/sextant config acls -c <file> prints every ACL Sextant needs (docs/security.md).", cause);
    }

    /** Runs {@code action}; a refusal it meets becomes {@link #refused}, other failures pass unchanged. */
    public void guard(String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            throw AccessDenials.authorization(e).map(denied -> (RuntimeException) refused(what, denied, e)).orElse(e);
        }
    }
}
