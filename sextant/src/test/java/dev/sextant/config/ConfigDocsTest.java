package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {

    @Test
    void everyKeyIsDocumented() {
        ConfigDef def = SextantConfig.configDef();
        assertEquals(50, def.names().size());
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            assertFalse(key.documentation == null || key.documentation.isBlank(), key.name);
            assertTrue(key.importance != null, key.name);
        }
        String md = ConfigDocs.markdown();
        for (String name : def.names()) {
            assertContains(md, "| `" + name + "` | `" + SextantConfigLoader.environmentVariable(name) + "` |");
        }
        assertContains(md, "`source.<client config>`");
        assertContains(md, "`${java.io.tmpdir}/sextant`");
        assertContains(ConfigDocs.rst(), "``sync.interval.ms``");
    }

    @Test
    void keysAreListedInDefinitionOrder() {
        String md = ConfigDocs.markdown();
        assertTrue(md.indexOf("| `source.alias` |") < md.indexOf("| `translation` |"), md);
        assertTrue(md.indexOf("| `translation` |") < md.indexOf("| `state.dir` |"), md);
        assertTrue(md.indexOf("| `state.dir` |") < md.indexOf("| `source.<client config>` |"), md);
    }

    @Test
    void cellsAreEscaped() {
        String md = ConfigDocs.markdown();
        assertContains(md, "`mm2-offset-syncs.<destination.alias>.internal`");
        assertContains(md, "mm2-offset-syncs.&lt;destination.alias&gt;.internal");
        assertContains(md, "`__.*\\|connect-.*\\|console-consumer-.*`");
    }
}
