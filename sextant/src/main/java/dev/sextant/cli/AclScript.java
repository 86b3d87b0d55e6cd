package dev.sextant.cli;

import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.SextantConfig;
import java.util.List;

/**
 * What {@code sextant config acls} prints by default: a shell script of the {@code kafka-acls} commands that grant
 * Sextant its ACLs on each cluster. It stops at the first command that fails ({@code set -eu}), and before any runs
 * when a variable it reads is not set, naming that variable: the commands read each cluster's bootstrap servers and
 * an admin's client settings from {@code <CLUSTER>_BOOTSTRAP} and {@code <CLUSTER>_ADMIN_CONFIG}.
 */
final class AclScript {

    private AclScript() {
    }

    static String of(SextantConfig loaded, SourceTopicReads reads, String sourcePrincipal,
                     String destinationPrincipal) {
        StringBuilder out = new StringBuilder("#!/bin/sh\n")
                .append("# The ACLs Sextant needs, from 'sextant config acls': set the variables below, then run it.\n")
                .append("set -eu\n");
        for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
            if (RequiredAcls.of(loaded, reads, cluster).isEmpty()) {
                continue;
            }
            // no quote characters in the messages: they stand inside the guard's double quotes
            out.append(guard(bootstrapVariable(cluster), "the bootstrap servers of the " + cluster.label()
                            + " cluster"))
                    .append(guard(adminConfigVariable(cluster), "a file of admin client settings for the "
                            + cluster.label() + " cluster"));
        }
        out.append('\n');
        for (RequiredAcl.Cluster cluster : RequiredAcl.Cluster.values()) {
            String principal = cluster == RequiredAcl.Cluster.SOURCE ? sourcePrincipal : destinationPrincipal;
            List<RequiredAcl> acls = RequiredAcls.of(loaded, reads, cluster);
            out.append("# ").append(cluster.label()).append(" cluster: $").append(bootstrapVariable(cluster))
                    .append(", with an admin's client settings in $").append(adminConfigVariable(cluster))
                    .append('\n');
            for (RequiredAcl acl : acls) {
                out.append("# ").append(acl.why()).append('\n').append(acl.command(principal)).append('\n');
            }
            SourceTopicReadOptions.notes(loaded, reads, cluster)
                    .forEach(note -> out.append("# note: ").append(note).append('\n'));
            out.append('\n');
        }
        return out.toString();
    }

    /** {@code : "${NAME:?set NAME to WHAT}"}: the shell stops, naming the variable, when it is unset or empty. */
    private static String guard(String variable, String what) {
        return ": \"${" + variable + ":?set " + variable + " to " + what + "}\"\n";
    }

    static String bootstrapVariable(RequiredAcl.Cluster cluster) {
        return cluster.name() + "_BOOTSTRAP";
    }

    static String adminConfigVariable(RequiredAcl.Cluster cluster) {
        return cluster.name() + "_ADMIN_CONFIG";
    }
}
