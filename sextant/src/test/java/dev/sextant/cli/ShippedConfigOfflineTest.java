package dev.sextant.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sextant.config.InvalidConfigurationException;
import dev.sextant.config.SextantConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every configuration the repository ships passes {@code config check --offline} (issue 50, item 5): the properties
 * files under config/ and deploy/, the files a ConfigMap under deploy/ carries (with the SEXTANT_* variables of the
 * Secrets beside it), and the {@code properties} examples of the docs, each a piece of a file (it is checked on top
 * of the two bootstrap servers, and the file and env providers when it lists none). Found by walking the tree, so a
 * file added later is checked too.
 */
class ShippedConfigOfflineTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
    private static final Pattern PROPERTIES_BLOCK = Pattern.compile("```properties\\n(.*?)```", Pattern.DOTALL);
    private static final String FRAGMENT_BASE = "source.bootstrap.servers=a:9092\n"
            + "destination.bootstrap.servers=b:9092\n";
    private static final String PROVIDERS = "config.providers=file,env\n"
            + "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\n"
            + "config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** A shipped configuration: where it is, its text, and the environment it runs with. */
    private record Shipped(String where, String text, Map<String, String> environment) {
    }

    @Test
    void everyShippedConfigurationPassesTheOfflineCheck(@TempDir Path dir) throws Exception {
        List<Shipped> shipped = shipped();
        List<String> wheres = shipped.stream().map(Shipped::where).toList();
        assertTrue(wheres.contains("config/sextant.properties") && wheres.contains("deploy/strimzi/sextant.properties")
                && wheres.stream().anyMatch(w -> w.startsWith("deploy/kubernetes/base/configmap.yaml"))
                && wheres.stream().anyMatch(w -> w.startsWith("docs/security.md")), wheres.toString());
        List<String> refused = new ArrayList<>();
        int n = 0;
        for (Shipped s : shipped) {
            Path file = Files.writeString(dir.resolve("shipped-" + n++ + ".properties"), s.text());
            try {
                SextantConfigLoader.loadOffline(file, s.environment());
            } catch (InvalidConfigurationException e) {
                refused.add(s.where() + ": " + e.getMessage());
            }
        }
        assertEquals(List.of(), refused, "checked: " + wheres);
    }

    /** The case: off-cluster, /etc/strimzi does not exist, and the check resolved the providers: exit 2. */
    @Test
    void theStrimziExampleIsCheckedOfflineThroughTheCommand() {
        String file = ROOT.resolve("deploy/strimzi/sextant.properties").toString();
        assertEquals(0, run("config", "check", "--offline", "-c", file), err.toString());
        assertTrue(out.toString().contains("valid offline"), out.toString());
        if (!Files.exists(Path.of("/etc/strimzi"))) {
            assertEquals(2, run("config", "check", "-c", file), "without --offline the providers are opened");
        }
    }

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    static List<Shipped> shipped() throws IOException {
        List<Shipped> shipped = new ArrayList<>();
        for (Path file : files(List.of("config", "deploy"), ".properties")) {
            shipped.add(new Shipped(relative(file), Files.readString(file), Map.of()));
        }
        for (Path file : files(List.of("deploy"), ".yaml")) {
            shipped.addAll(configMaps(file));
        }
        List<Path> docs = new ArrayList<>(files(List.of("docs"), ".md"));
        docs.add(ROOT.resolve("README.md"));
        docs.add(ROOT.resolve("deploy/README.md"));
        for (Path doc : docs) {
            Matcher block = PROPERTIES_BLOCK.matcher(Files.readString(doc));
            for (int i = 1; block.find(); i++) {
                String text = block.group(1);
                if (sextants(text)) {
                    shipped.add(new Shipped(relative(doc) + " block " + i, FRAGMENT_BASE
                            + (text.contains("config.providers=") ? "" : PROVIDERS) + text, Map.of()));
                }
            }
        }
        return shipped;
    }

    /** A docs block is Sextant's configuration unless it is MirrorMaker 2's (it sets clusters) or a client's. */
    private static boolean sextants(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return !properties.containsKey("clusters") && properties.stringPropertyNames().stream().anyMatch(k ->
                k.startsWith("source.") || k.startsWith("destination.") || k.startsWith("streams.")
                        || k.startsWith("config.providers") || SextantConfigLoader.keyForEnvironmentVariable(
                        SextantConfigLoader.environmentVariable(k)).filter(k::equals).isPresent());
    }

    /** The properties files of a ConfigMap, with the SEXTANT_* variables of the Secrets in the same folder. */
    private static List<Shipped> configMaps(Path yaml) throws IOException {
        List<Shipped> found = new ArrayList<>();
        for (JsonNode document : documents(yaml)) {
            if (!"ConfigMap".equals(document.path("kind").asText())) {
                continue;
            }
            Map<String, String> environment = secretVariables(yaml.getParent());
            document.path("data").fields().forEachRemaining(e -> {
                if (e.getKey().endsWith(".properties")) {
                    found.add(new Shipped(relative(yaml) + " " + e.getKey(), e.getValue().asText(), environment));
                }
            });
        }
        return found;
    }

    private static Map<String, String> secretVariables(Path folder) throws IOException {
        Map<String, String> environment = new TreeMap<>();
        for (Path yaml : files(List.of(ROOT.relativize(folder).toString()), ".yaml")) {
            if (!yaml.getParent().equals(folder)) {
                continue;
            }
            for (JsonNode document : documents(yaml)) {
                if ("Secret".equals(document.path("kind").asText())) {
                    document.path("stringData").fields().forEachRemaining(e -> {
                        if (e.getKey().startsWith("SEXTANT_")) {
                            environment.put(e.getKey(), e.getValue().asText());
                        }
                    });
                }
            }
        }
        return environment;
    }

    private static List<JsonNode> documents(Path yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = new YAMLMapper().readerFor(JsonNode.class)
                .readValues(Files.readString(yaml))) {
            while (it.hasNext()) {
                JsonNode document = it.next();
                if (document != null && document.isObject()) {
                    documents.add(document);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not YAML Jackson reads (a kustomize patch list is, a template is not): it holds no ConfigMap
        }
        return documents;
    }

    private static List<Path> files(List<String> folders, String suffix) throws IOException {
        Map<String, Path> found = new LinkedHashMap<>();
        for (String folder : folders) {
            Path start = ROOT.resolve(folder);
            if (!Files.isDirectory(start)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(start)) {
                paths.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(suffix))
                        .filter(p -> !p.toString().contains("node_modules") && !p.toString().contains("/target/"))
                        .sorted().forEach(p -> found.put(p.toString(), p));
            }
        }
        return List.copyOf(found.values());
    }

    private static String relative(Path file) {
        return ROOT.relativize(file).toString();
    }

    @Test
    void theFragmentTestTellsSextantsBlocksFromOthers() throws Exception {
        assertTrue(sextants("source.security.protocol=SSL\n"));
        assertTrue(sextants("query.auth.token=${file:/x:y}\n"));
        assertFalse(sextants("clusters=a,b\na.bootstrap.servers=x\n"), "MirrorMaker 2's");
        assertFalse(sextants("security.protocol=SSL\n"), "a client's, for --command-config");
    }
}
