package dev.sextant.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * File-system helpers of the launcher: owned temp directories, recursive deletion and log tails.
 *
 * <p>Invariant: every directory made by {@link #createOwnedTempDir} is named {@code <prefix>-<pid>-<random>}
 * with the pid of the JVM that owns it, so a later JVM can delete leftovers of owners that were SIGKILLed
 * ({@link #deleteStaleTempDirs}) without touching a directory whose owner is still alive.
 */
final class LocalFiles {

    private LocalFiles() {
    }

    static Path tempRoot() {
        return Paths.get(System.getProperty("java.io.tmpdir"));
    }

    /** A new directory {@code <tmp>/<prefix>-<our pid>-<random>}. */
    static Path createOwnedTempDir(String prefix) {
        try {
            return Files.createTempDirectory(tempRoot(), prefix + "-" + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory in " + tempRoot(), e);
        }
    }

    /** The owner pid encoded in a name made by {@link #createOwnedTempDir}, if it is one with {@code prefix}. */
    static Optional<Long> ownerPid(String prefix, String directoryName) {
        Matcher m = Pattern.compile(Pattern.quote(prefix) + "-(\\d+)-.*").matcher(directoryName);
        return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
    }

    /** Deletes {@code <tmp>/<prefix>-<pid>-*} directories whose owner process no longer exists. Best effort. */
    static void deleteStaleTempDirs(String prefix) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tempRoot(), prefix + "-*")) {
            for (Path dir : dirs) {
                Optional<Long> owner = ownerPid(prefix, dir.getFileName().toString());
                if (owner.isEmpty()) {
                    continue; // not made by createOwnedTempDir: not ours to judge
                }
                boolean ownerAlive = ProcessHandle.of(owner.get()).map(ProcessHandle::isAlive).orElse(false);
                if (!ownerAlive && Files.isDirectory(dir)) {
                    deleteRecursively(dir);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // leftovers only waste disk space; never fail a start because of them
        }
    }

    /** Deletes {@code root} and everything below it; a missing root is fine. */
    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** The last {@code maxLines} lines of a (log) file, or a note if it does not exist; never throws. */
    static String tail(Path file, int maxLines) {
        final int maxBytes = 64 * 1024;
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            long start = Math.max(0, size - maxBytes);
            ByteBuffer buffer = ByteBuffer.allocate((int) (size - start));
            channel.position(start);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // keep reading until the buffer is full
            }
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
            String[] lines = text.split("\n", -1);
            int from = Math.max(0, lines.length - maxLines - 1);
            return String.join("\n", Arrays.copyOfRange(lines, from, lines.length)).strip();
        } catch (NoSuchFileException e) {
            return "(" + file + " does not exist)";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /** The first {@code maxLines} lines of {@code file} that {@code pattern} finds something in, "" when none. */
    static String matching(Path file, Pattern pattern, int maxLines) {
        try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.filter(line -> pattern.matcher(line).find()).limit(maxLines)
                    .collect(Collectors.joining("\n"));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }

    /**
     * Finds a text in a growing log file, reading only what was appended since the previous call.
     * Invariant: a needle that straddles two reads is still found (the last {@code needle.length()-1} bytes
     * are kept as overlap).
     */
    static final class LogWatcher {
        private final Path file;
        private final String needle;
        private long position;
        private String carry = "";

        LogWatcher(Path file, String needle) {
            this.file = file;
            this.needle = needle;
        }

        boolean seen() {
            try (SeekableByteChannel channel = Files.newByteChannel(file)) {
                long size = channel.size();
                if (size <= position) {
                    return false;
                }
                channel.position(position);
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - position, 4 * 1024 * 1024));
                while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                    // fill the buffer
                }
                position += buffer.position();
                // ISO-8859-1 maps bytes 1:1, so a split multi-byte character can never hide an ASCII needle
                String chunk = carry + new String(buffer.array(), 0, buffer.position(), StandardCharsets.ISO_8859_1);
                if (chunk.contains(needle)) {
                    return true;
                }
                carry = chunk.substring(Math.max(0, chunk.length() - needle.length() + 1));
                return false;
            } catch (NoSuchFileException e) {
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }
}
