package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigEnumTest {

    @Test
    void parsesEveryValueTrimmedAndInAnyCase() {
        assertEquals(Translation.OFFSET_SYNCS, Translation.fromConfigValue(" Offset-Syncs "));
        assertEquals(Interpolation.OFF, Interpolation.fromConfigValue("OFF"));
        assertEquals(RewindPolicy.FOLLOW_SOURCE, RewindPolicy.fromConfigValue("follow-source"));
        assertEquals(UntranslatablePolicy.EARLIEST, UntranslatablePolicy.fromConfigValue("Earliest"));
        assertEquals(ForeignOffsetPolicy.ADOPT_FORWARD, ForeignOffsetPolicy.fromConfigValue("adopt-forward\t"));
        assertEquals(List.of("verified", "unverified", "off"), Interpolation.configValues());
    }

    @Test
    void aRefusalNamesWhatWasParsedAndEveryAcceptedValue() {
        assertEquals("Unknown translation 'mm2'; expected one of [offset-syncs, identity]",
                refusal(() -> Translation.fromConfigValue("mm2")));
        assertEquals("Unknown interpolation 'on'; expected one of [verified, unverified, off]",
                refusal(() -> Interpolation.fromConfigValue("on")));
        assertEquals("Unknown rewind policy 'always'; expected one of [follow-source, never]",
                refusal(() -> RewindPolicy.fromConfigValue("always")));
        assertEquals("Unknown policy 'latest'; expected one of [refuse, earliest]",
                refusal(() -> UntranslatablePolicy.fromConfigValue("latest")));
        assertEquals("Unknown foreign offset policy 'adopt'; expected one of [refuse, adopt-forward]",
                refusal(() -> ForeignOffsetPolicy.fromConfigValue("adopt")));
    }

    private static String refusal(Runnable parse) {
        return assertThrows(IllegalArgumentException.class, parse::run).getMessage();
    }
}
