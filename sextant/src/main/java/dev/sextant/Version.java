package dev.sextant;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Sextant's version, the Kafka client version it was built with and the commit it was built from, from a resource the
 * build fills in.
 */
public final class Version {

    private static final Properties PROPS = load();

    private Version() {
    }

    public static String current() {
        return PROPS.getProperty("version", "unknown");
    }

    public static String kafka() {
        return PROPS.getProperty("kafka.version", "unknown");
    }

    /** The Git commit the build was made from; "unknown" for a build outside a Git checkout. */
    public static String revision() {
        String revision = PROPS.getProperty("revision", "");
        // the build leaves the placeholder where it found no commit
        return revision.isBlank() || revision.startsWith("${") ? "unknown" : revision;
    }

    private static Properties load() {
        Properties props = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/sextant-version.properties")) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            // leave it empty: "unknown"
        }
        return props;
    }
}
