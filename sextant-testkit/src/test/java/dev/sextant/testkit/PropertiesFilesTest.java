package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PropertiesFilesTest {

    @Test
    void renderedTextLoadsBackToTheSameMap() throws IOException {
        Map<String, String> original = new LinkedHashMap<>();
        original.put("source->destination.enabled", "true");
        original.put("source->destination.topics", ".*");
        original.put("topics.exclude", ".*[\\-\\.]internal, .*\\.replica, __.*");
        original.put("log.dirs", "/tmp/dir with spaces/data");
        original.put("listeners", "PLAINTEXT://127.0.0.1:1234,CONTROLLER://127.0.0.1:1235");
        original.put("key with = and : and space", " leading space, #hash, !bang");
        original.put("#not-a-comment", "!not-a-comment");
        original.put("unicode", "caf\u00e9 \u2603");
        original.put("multi", "line1\nline2\ttab");
        original.put("empty", "");

        String text = PropertiesFiles.render("header line 1\nheader line 2", original);
        Properties loaded = new Properties();
        loaded.load(new StringReader(text));

        Map<String, String> back = new HashMap<>();
        loaded.stringPropertyNames().forEach(k -> back.put(k, loaded.getProperty(k)));
        assertEquals(new HashMap<>(original), back);
    }

    @Test
    void keepsTheCallersOrderAndCommentsTheHeader() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("z", "1");
        map.put("a", "2");
        map.put("m", "3");

        List<String> lines = new ArrayList<>(List.of(PropertiesFiles.render("made by a test", map).split("\n")));

        assertEquals(List.of("# made by a test", "z=1", "a=2", "m=3"), lines);
    }

    @Test
    void log4j2ConfigWritesInfoToTheGivenFile() {
        Map<String, String> config = PropertiesFiles.log4j2(Path.of("/tmp/x/broker.log"));

        assertEquals("/tmp/x/broker.log", config.get("appender.file.fileName"));
        assertEquals("INFO", config.get("rootLogger.level"));
        assertTrue(config.containsKey("rootLogger.appenderRef.file.ref"));
    }
}
