package dev.sextant.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class IdentityTranslatorTest {

    @Test
    void destinationOffsetIsTheSourceOffset() {
        OffsetTranslation t = new IdentityTranslator().translate("orders", 2, 4242).orElseThrow();
        assertEquals(OffsetTranslation.exact(4242, 4242), t);
        assertEquals(Optional.empty(), new IdentityTranslator().translate("orders", 2, -1));
    }
}
