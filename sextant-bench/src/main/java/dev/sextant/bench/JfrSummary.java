package dev.sextant.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where Sextant's time went, from a JFR recording: {@code jdk.ExecutionSample} (threads running Java code) and
 * {@code jdk.NativeMethodSample} (threads inside native code: RocksDB through JNI, but also network threads parked
 * in epoll), per thread, by top frame, by method anywhere on the stack, and the hottest stack prefixes of Kafka
 * Streams' stream thread (the one that processes records and runs Sextant's flushes).
 */
final class JfrSummary {

    private JfrSummary() {
    }

    static String summarise(Path recording, int top) throws IOException {
        StringBuilder out = new StringBuilder();
        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        for (String type : List.of("jdk.ExecutionSample", "jdk.NativeMethodSample")) {
            Map<String, Integer> self = new HashMap<>();
            Map<String, Integer> inclusive = new HashMap<>();
            Map<String, Integer> threads = new HashMap<>();
            Map<String, Integer> streamStacks = new HashMap<>();
            int total = 0;
            int stream = 0;
            for (RecordedEvent event : events) {
                if (!event.getEventType().getName().equals(type)) {
                    continue;
                }
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                total++;
                String thread = event.getThread("sampledThread") == null ? "?"
                        : String.valueOf(event.getThread("sampledThread").getJavaName());
                String threadKind = thread.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<id>").replaceAll("\\d+", "N");
                threads.merge(threadKind, 1, Integer::sum);
                List<RecordedFrame> frames = stack.getFrames();
                self.merge(name(frames.get(0)), 1, Integer::sum);
                Set<String> seen = new HashSet<>();
                for (RecordedFrame frame : frames) {
                    String n = name(frame);
                    if (seen.add(n)) {
                        inclusive.merge(n, 1, Integer::sum);
                    }
                }
                if (thread.matches(".*-StreamThread-\\d+")) { // not the global thread, not the producer's
                    stream++;
                    streamStacks.merge(sextantPath(frames), 1, Integer::sum);
                }
            }
            out.append(String.format(Locale.ROOT, "######## %s: %d samples (%d of Kafka Streams' stream thread)%n",
                    type, total, stream));
            section(out, "threads", threads, total, top);
            section(out, "self (top frame)", self, total, top);
            section(out, "inclusive (anywhere on the stack)", inclusive, total, top);
            section(out, "stream thread: top frame <- innermost dev.sextant frames", streamStacks, stream, top);
            out.append('\n');
        }
        return out.toString();
    }

    /** The top frame and the first dev.sextant frames below it: what Sextant code led to the hot spot. */
    private static String sextantPath(List<RecordedFrame> frames) {
        StringBuilder path = new StringBuilder(shortName(frames.get(0)));
        int ours = 0;
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("dev.sextant.") && ours < 3) {
                path.append(" <- ").append(shortName(frame)).append(':').append(frame.getLineNumber());
                ours++;
            }
        }
        return path.toString();
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static String shortName(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
    }

    private static void section(StringBuilder out, String title, Map<String, Integer> counts, int total, int top) {
        out.append("\n== ").append(title).append('\n');
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort((a, b) -> b.getValue() - a.getValue());
        for (Map.Entry<String, Integer> e : sorted.subList(0, Math.min(top, sorted.size()))) {
            out.append(String.format(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, total),
                    e.getKey()));
        }
    }

    static void write(Path recording, Path target) throws IOException {
        Files.writeString(target, summarise(recording, 30));
    }

    /** {@code JfrSummary FILE.jfr}: prints the summary of an existing recording. */
    public static void main(String[] args) throws IOException {
        System.out.print(summarise(Path.of(args[0]), args.length > 1 ? Integer.parseInt(args[1]) : 30));
    }
}
