package dev.sextant.testing;

import dev.sextant.acl.RequiredAcl;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * Grants and revokes {@link RequiredAcl}s of one principal on a secured pair of local clusters, each on its cluster
 * (as the admin), and waits until the brokers list the change.
 */
public final class AclGrants {

    private final LocalClusters clusters;
    private final String principal;

    public AclGrants(LocalClusters clusters, String principal) {
        this.clusters = clusters;
        this.principal = principal;
    }

    /** Grants {@code acls} to the principal, each on its cluster, and waits until the brokers list them. */
    public void grant(List<RequiredAcl> acls) throws Exception {
        change(acls, true);
    }

    /** Revokes {@code acls}, each on its cluster, and waits until the brokers no longer list them. */
    public void revoke(List<RequiredAcl> acls) throws Exception {
        change(acls, false);
    }

    private void change(List<RequiredAcl> acls, boolean grant) throws Exception {
        for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
            List<AclBinding> bindings = new ArrayList<>();
            acls.stream().filter(a -> a.cluster() == cluster).forEach(a -> bindings.addAll(a.bindings(principal)));
            if (bindings.isEmpty()) {
                continue;
            }
            LocalKafkaBroker broker = cluster == RequiredAcl.Cluster.SOURCE ? clusters.source()
                    : clusters.destination();
            try (Admin admin = clusters.admin(broker)) {
                if (grant) {
                    admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
                } else {
                    admin.deleteAcls(bindings.stream().map(AclBinding::toFilter).toList()).all()
                            .get(30, TimeUnit.SECONDS);
                }
                Await.until(Duration.ofSeconds(60), (grant ? "granted " : "revoked ") + bindings, () -> {
                    try {
                        var present = admin.describeAcls(AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS);
                        return grant ? present.containsAll(bindings)
                                : bindings.stream().noneMatch(present::contains);
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
        }
    }
}
