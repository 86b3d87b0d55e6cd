package dev.sextant.acl;

import static dev.sextant.acl.SourceTopicReads.literal;
import static dev.sextant.acl.SourceTopicReads.prefixed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.junit.jupiter.api.Test;

class TopicsIncludePatternsTest {

    private static Optional<List<ResourcePattern>> of(String regex) {
        return TopicsIncludePatterns.of(regex);
    }

    @Test
    void namesAndPrefixesBecomeLiteralAndPrefixedPatterns() {
        assertEquals(Optional.of(List.of(literal("orders"))), of("orders"));
        assertEquals(Optional.of(List.of(literal("orders"), literal("payments"))), of("orders|payments"));
        assertEquals(Optional.of(List.of(prefixed("orders."))), of("orders\\..*"));
        assertEquals(Optional.of(List.of(literal("orders"))), of("^orders$"));
        assertEquals(Optional.of(List.of(literal("orders.v1"), prefixed("billing-"))),
                of("\\Qorders.v1\\E|billing-.+"));
        assertEquals(Optional.of(List.of(prefixed("orders."))), of("orders\\.(eu|us)"));
        assertEquals(Optional.of(List.of(prefixed("orders.v"))), of("orders\\.v[0-9]+"));
    }

    @Test
    void aPrefixEndsWhereTheExpressionStopsBeingLiteral() {
        assertEquals(Optional.of(List.of(prefixed("orders"))), of("orders.events"), "an unescaped dot is any one");
        assertEquals(Optional.of(List.of(prefixed("order"))), of("orders?"), "the s may be absent");
        assertEquals(Optional.of(List.of(prefixed("orders"))), of("orders\\.*"), "the dots may be absent");
        assertEquals(Optional.of(List.of(prefixed("order"))), of("orders{0,2}"));
        assertEquals(Optional.of(List.of(prefixed("orders"))), of("orders\\d"), "a class, not a d");
    }

    @Test
    void anAlternativeWithoutALiteralBeginningGivesNoPatterns() {
        for (String regex : List.of(".*", "(?i)orders", "orders|.*", "[a-z]+", "(orders|payments)\\..*", "\\w+",
                "", "|")) {
            assertEquals(Optional.empty(), of(regex), regex);
        }
    }

    @Test
    void aPatternInsideAnotherIsDropped() {
        assertEquals(Optional.of(List.of(prefixed("a."))), of("a\\..*|a\\.b\\..*|a\\.c"));
        assertEquals(Optional.of(List.of(literal("orders"), prefixed("orders."))), of("orders|orders\\..*"));
    }

    /** Whatever the expression, every topic it matches is one the patterns grant Read on. */
    @Test
    void thePatternsCoverEveryTopicTheExpressionMatches() {
        List<String> regexes = List.of("orders", "orders|payments", "orders\\..*", "orders.events", "orders?",
                "orders\\.*", "orders{0,2}", "a\\..*|a\\.b\\..*|a\\.c", "\\Qo.r\\E|b-.+", "orders\\.(eu|us)",
                "orde[rs]+", "or(de)?rs", "o|or|ord");
        Random random = new Random(7);
        String alphabet = "orderspaymnt.-_abceu";
        List<String> names = new ArrayList<>(List.of("orders", "order", "orders.eu", "ordersXevents", "orde",
                "orders..", "a.b.c", "a.c", "o.r", "b-x", "ordrs", "o", "or", "ord"));
        for (int i = 0; i < 20_000; i++) {
            StringBuilder name = new StringBuilder();
            for (int n = 1 + random.nextInt(10); n > 0; n--) {
                name.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            names.add(name.toString());
        }
        for (String regex : regexes) {
            List<ResourcePattern> patterns = of(regex).orElseThrow(() -> new AssertionError(regex));
            Pattern compiled = Pattern.compile(regex);
            for (String name : names) {
                if (compiled.matcher(name).matches()) {
                    assertTrue(patterns.stream().anyMatch(p -> p.patternType() == PatternType.PREFIXED
                            ? name.startsWith(p.name()) : name.equals(p.name())),
                            regex + " matches " + name + ", which " + patterns + " miss");
                }
            }
        }
    }
}
