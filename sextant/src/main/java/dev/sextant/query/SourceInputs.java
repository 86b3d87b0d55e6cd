package dev.sextant.query;

import java.util.List;

/** Which of Sextant's input topics are missing on the source cluster, for the readiness detail. */
public interface SourceInputs extends AutoCloseable {

    /** @param missing the missing inputs; {@code error} non-null when the source could not be asked */
    record Status(List<Views.MissingInput> missing, String error) {
    }

    Status check();

    @Override
    default void close() {
    }
}
