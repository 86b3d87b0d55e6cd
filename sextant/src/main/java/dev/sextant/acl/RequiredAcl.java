package dev.sextant.acl;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.internals.SecurityUtils;

/**
 * One permission Sextant's principal needs on one cluster: operations on a resource (literal, prefixed, or the
 * wildcard {@code *}), and why.
 */
public record RequiredAcl(Cluster cluster, ResourceType resourceType, String name, PatternType patternType,
                          List<AclOperation> operations, String why) {

    /** Which of the two clusters. */
    public enum Cluster {
        SOURCE, DESTINATION;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RequiredAcl {
        operations = List.copyOf(operations);
    }

    /** The {@code kafka-acls} command that grants it to {@code principal} (e.g. {@code User:sextant}). */
    public String command(String principal) {
        StringBuilder sb = new StringBuilder("kafka-acls.sh --bootstrap-server \"$").append(cluster.name())
                .append("_BOOTSTRAP\" --command-config \"$").append(cluster.name()).append("_ADMIN_CONFIG\" --add")
                .append(" --allow-principal '").append(principal).append("'");
        for (AclOperation op : operations) {
            sb.append(" --operation ").append(SecurityUtils.operationName(op));
        }
        switch (resourceType) {
            case TOPIC -> sb.append(" --topic '").append(name).append("'");
            case GROUP -> sb.append(" --group '").append(name).append("'");
            case TRANSACTIONAL_ID -> sb.append(" --transactional-id '").append(name).append("'");
            case CLUSTER -> sb.append(" --cluster");
            default -> throw new IllegalStateException("no kafka-acls flag for " + resourceType);
        }
        if (patternType == PatternType.PREFIXED) {
            sb.append(" --resource-pattern-type prefixed");
        }
        return sb.toString();
    }

    /** The bindings that grant it to {@code principal}, for {@code Admin.createAcls}. */
    public List<AclBinding> bindings(String principal) {
        ResourcePattern pattern = new ResourcePattern(resourceType, name, patternType);
        return operations.stream().map(op -> new AclBinding(pattern,
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW))).collect(Collectors.toList());
    }

    /** "Read, Describe on topic '__consumer_offsets'". */
    public String describe() {
        return operationNames(operations) + " on " + resourceType.name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + " " + (patternType == PatternType.PREFIXED ? "prefix '" + name + "'" : "'" + name + "'");
    }

    /** "Read, Describe": the operations as {@code kafka-acls} spells them. */
    static String operationNames(Collection<AclOperation> operations) {
        return operations.stream().map(SecurityUtils::operationName).collect(Collectors.joining(", "));
    }
}
