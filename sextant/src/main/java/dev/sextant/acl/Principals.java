package dev.sextant.acl;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.types.Password;

/**
 * Sextant's principal as a guess from its client settings, for the commands printed in error messages: a Kafka
 * client is never told its own principal. SASL: the JAAS {@code username}; otherwise a placeholder.
 */
public final class Principals {

    public static final String PLACEHOLDER = "User:<Sextant's principal>";
    private static final Pattern USERNAME = Pattern.compile("username\\s*=\\s*\"([^\"]+)\"");

    private Principals() {
    }

    public static String guess(Map<String, Object> clientConfig) {
        Object jaas = clientConfig.get("sasl.jaas.config");
        if (jaas != null) {
            String text = jaas instanceof Password p ? p.value() : jaas.toString();
            Matcher m = USERNAME.matcher(text);
            if (m.find()) {
                return "User:" + m.group(1);
            }
        }
        return PLACEHOLDER;
    }
}
