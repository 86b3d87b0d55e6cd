package dev.sextant.apply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaFuture;

/**
 * Kafka's futures as {@link CompletableFuture}s, and the failure inside the wrappers they complete with: one holder
 * every class of this package that talks to the destination reads them from.
 */
final class KafkaFutures {

    private KafkaFutures() {
    }

    static <T> CompletableFuture<T> toCompletable(KafkaFuture<T> future) {
        return future.toCompletionStage().toCompletableFuture();
    }

    /** A call of the destination client, whose throwing is a failed answer as any other. */
    static <T> CompletableFuture<T> asked(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The failure inside any {@link CompletionException} and {@link ExecutionException} wrapping it. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException
                || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
