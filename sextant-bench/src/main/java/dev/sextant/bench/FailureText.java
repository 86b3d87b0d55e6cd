package dev.sextant.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a failure during a run is told: in one line for the log and the results, and whole in a file of the work
 * directory.
 */
final class FailureText {

    private FailureText() {
    }

    /** A failure in one line: the innermost useful message's first line, at most 300 characters. */
    static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName()
                : t.getMessage().strip().lines().findFirst().orElse("");
        int see = message.indexOf("; see "); // where the log is: recorded apart
        message = see > 0 ? message.substring(0, see) : message;
        return message.length() <= 300 ? message : message.substring(0, 297) + "...";
    }

    /** A failure's whole story (stack trace, the logs' last lines it quotes) for whoever reads the work directory. */
    static void write(Path file, String reason, Throwable e) {
        StringWriter text = new StringWriter();
        text.append(reason).append(System.lineSeparator());
        if (e != null) {
            e.printStackTrace(new PrintWriter(text));
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text.toString());
        } catch (IOException ignored) {
            // for humans only
        }
    }
}
