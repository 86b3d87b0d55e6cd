package dev.sextant.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code sextant run} log (text or JSON lines, as the child JVM wrote it) for its last stop: begun, ended,
 * and nothing logged at WARN or ERROR with an exception meanwhile, nor thrown out of a thread (a shutdown hook's
 * exception is printed by the JVM, not logged), nor reported as the run command's failure.
 */
public final class StopLog {

    /** What SextantApplication logs when a stop begins and when it ended. */
    static final String STOPPING = "Stopping Sextant";
    static final String STOPPED = "Sextant stopped";

    /** A text log line (the application's logback.xml pattern): time, level. */
    private static final Pattern TEXT_LINE = Pattern.compile("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} (\\w+) ");
    private static final Pattern JSON_LEVEL = Pattern.compile("\"level\"\\s*:\\s*\"(\\w+)\"");
    private static final Pattern JSON_THROWABLE = Pattern.compile("\"throwable\"\\s*:\\s*\\{");

    private StopLog() {
    }

    /** Fails unless the log's last stop began, ended, and was quiet. */
    public static void assertQuiet(Path log) throws IOException {
        List<String> problems = problems(Arrays.asList(
                new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\r?\n")));
        if (!problems.isEmpty()) {
            throw new AssertionError("The stop in " + log + " was not quiet and complete:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** What is wrong with the last stop in these lines; empty when it began, ended and was quiet. */
    static List<String> problems(List<String> lines) {
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(STOPPING)) {
                from = i;
            }
        }
        if (from < 0) {
            return List.of("no stop began ('" + STOPPING + "' is not logged)");
        }
        List<String> problems = new ArrayList<>();
        boolean ended = false;
        String level = "";
        String logLine = "";
        for (String line : lines.subList(from, lines.size())) {
            Matcher text = TEXT_LINE.matcher(line);
            Matcher json = JSON_LEVEL.matcher(line);
            ended |= line.contains(STOPPED);
            if (text.find()) {
                level = text.group(1);
                logLine = line;
            } else if (json.find()) {
                if (loud(json.group(1)) && JSON_THROWABLE.matcher(line).find()) {
                    problems.add(line);
                }
            } else if (line.startsWith("Exception in thread ") || line.startsWith("sextant: ")) {
                problems.add(line); // thrown out of a thread, or out of the run command
                level = "";
            } else if (line.startsWith("\tat ") && loud(level)) {
                problems.add(logLine); // the stack trace of a warning or an error
                level = "";
            }
        }
        if (!ended) {
            problems.add("the stop did not end ('" + STOPPED + "' is not logged after '" + STOPPING + "')");
        }
        return problems;
    }

    private static boolean loud(String level) {
        return level.equals("WARN") || level.equals("ERROR");
    }
}
