package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.acl.SourceTopicReads;
import dev.sextant.acl.TopicsIncludePatterns;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MirrorMaker 2's comma-separated lists in the filter keys mean what they meant in MirrorMaker 2. */
class PatternListTest {

    @Test
    void aCommaListOfGroupsSyncsEachOfThem() {
        SextantConfig c = config("groups.include", "orders-.*, payments ,audit");
        assertTrue(c.includesGroup("orders-eu"));
        assertTrue(c.includesGroup("payments"));
        assertTrue(c.includesGroup("audit"));
        assertFalse(c.includesGroup("other"));
    }

    @Test
    void aCommaListExcludesEachOfItsExpressions() {
        SextantConfig c = config("groups.exclude", "test-.*,tmp", "topics.include", "orders,payments\\..*",
                "topics.exclude", "payments\\.internal, orders");
        assertFalse(c.includesGroup("test-1"));
        assertFalse(c.includesGroup("tmp"));
        assertTrue(c.includesGroup("orders"));
        assertTrue(c.includesTopic("payments.eu"));
        assertFalse(c.includesTopic("payments.internal"));
        assertFalse(c.includesTopic("orders"));
        assertEquals("orders|payments\\..*", c.topicsInclude().pattern());
    }

    /** config acls grants Read on what topics.include names: a MirrorMaker 2 list names the same topics. */
    @Test
    void theAclsOfACommaListAreItsTopics() {
        SextantConfig c = config("topics.include", "orders, payments\\..*");
        assertEquals(Optional.of(List.of(SourceTopicReads.literal("orders"), SourceTopicReads.prefixed("payments."))),
                TopicsIncludePatterns.of(c.topicsInclude().pattern()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "a{1,3} | aaa | true",
            "a{1,3} | aaaa | false",
            "x[,;]y | 'x,y' | true",
            "(a,b) | 'a,b' | true",
            "g\\,h | 'g,h' | true",
            "\\Qa,b\\E | 'a,b' | true",
    })
    void aCommaInsideAnExpressionIsItsOwn(String regex, String group, boolean included) {
        assertEquals(included, config("groups.include", regex).includesGroup(group));
        assertEquals(List.of(regex), PatternList.expressions(regex));
    }

    @Test
    void splitsAtTopLevelCommasOnly() {
        assertEquals(List.of("a{1,3}", "[,]", "(x,y)", "z"), PatternList.expressions("a{1,3}, [,] ,(x,y),,z"));
        assertEquals("a|b", PatternList.regex(" a , b "));
    }

    @Test
    void aBadExpressionInAListIsNamed() {
        InvalidConfigurationException e = refused("groups.include", "groups.include", "orders, (x");
        assertContains(e.getMessage(), "the regular expression '(x' does not compile");
        assertContains(e.getMessage(), "or a comma-separated list of them");
    }
}
