package dev.sextant.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Main class of every child JVM the launcher starts: {@code ParentWatchdogMain <real main class> <args...>}, or
 * {@code ParentWatchdogMain --format-storage <n> <n storage tool arguments> <real main class> <args...>} for a KRaft
 * broker whose storage is formatted in its own JVM, just before it starts ({@link #FORMAT_STORAGE}).
 *
 * <p>It makes children die with their parent, even when the parent is killed with SIGKILL and cannot run any
 * cleanup. The parent keeps the write end of the child's stdin pipe open and never writes to it; when the parent
 * dies, the kernel closes that end and {@code System.in.read()} returns EOF here, so the child calls
 * {@code System.exit(0)}, which runs the real program's shutdown hooks (Kafka shuts down cleanly).
 *
 * <p>Invariants, because this class is copied on its own onto the child's classpath:
 * <ul>
 *   <li>it uses JDK APIs only, and compiles to exactly one class file (lambdas only, no nested or anonymous
 *       classes), so copying {@code ParentWatchdogMain.class} is enough;</li>
 *   <li>it never reads stdin content: any byte is ignored, only EOF (or a read error) counts.</li>
 * </ul>
 */
public final class ParentWatchdogMain {

    /**
     * How long the graceful exit may take before the JVM is halted. Kafka's own hooks take ~2 s; MirrorMaker hangs
     * ~25 s if its brokers are already gone, and an orphan should not linger that long.
     */
    static final long HALT_AFTER_MILLIS = 10_000;
    /**
     * Formats a broker's storage with Kafka's storage tool ({@code kafka.tools.StorageTool.execute}, which returns
     * its exit code, where {@code main} exits the JVM) before the broker's main runs in the same JVM: a JVM of its
     * own for the format costs seconds of start-up and class loading on every broker start.
     */
    static final String FORMAT_STORAGE = "--format-storage";

    private ParentWatchdogMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: ParentWatchdogMain <main class> [args...]");
            System.exit(2);
        }
        ignoreSigint();
        Thread watchdog = new Thread(ParentWatchdogMain::exitOnStdinEof, "parent-watchdog");
        // daemon: must never keep a child alive after its real main program has finished
        watchdog.setDaemon(true);
        watchdog.start();

        int first = 0;
        if (args[0].equals(FORMAT_STORAGE)) {
            int count = Integer.parseInt(args[1]);
            formatStorage(Arrays.copyOfRange(args, 2, 2 + count));
            first = 2 + count;
        }
        Class<?> mainClass = Class.forName(args[first], true, ClassLoader.getSystemClassLoader());
        Method main = mainClass.getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, first + 1, args.length));
        } catch (InvocationTargetException e) {
            // rethrow the program's own failure so the JVM reports it exactly as without the watchdog
            throw e.getCause();
        }
    }

    /** Runs the storage tool; exits the JVM with its code when it fails. */
    private static void formatStorage(String[] toolArgs) throws ReflectiveOperationException {
        Class<?> tool = Class.forName("kafka.tools.StorageTool", true, ClassLoader.getSystemClassLoader());
        Method execute = tool.getMethod("execute", String[].class, PrintStream.class);
        int exit;
        try {
            exit = (Integer) execute.invoke(null, toolArgs, System.out);
        } catch (InvocationTargetException e) {
            System.err.println("formatting the storage failed: " + e.getCause());
            exit = 1;
        }
        if (exit != 0) {
            System.err.println("formatting the storage failed (exit " + exit + ")");
            System.exit(exit);
        }
    }

    /**
     * Ctrl-C in a terminal sends SIGINT to the whole process group, children included. If every JVM shut down at
     * once, MirrorMaker would hang for seconds on its vanished brokers; ignoring SIGINT here leaves the shutdown to
     * the parent, which stops MirrorMaker first and then the brokers (SIGTERM still works as usual). Reflection,
     * because {@code sun.misc.Signal} is a JDK-internal API that javac warns about; best effort.
     */
    private static void ignoreSigint() {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object ignore = handler.getField("SIG_IGN").get(null);
            Object sigint = signal.getConstructor(String.class).newInstance("INT");
            signal.getMethod("handle", signal, handler).invoke(null, sigint, ignore);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // without it, Ctrl-C only makes the shutdown slower
        }
    }

    private static void exitOnStdinEof() {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // the parent never writes; ignore anything that arrives
            }
        } catch (IOException e) {
            // a broken pipe means the same as EOF: the parent is gone
        }
        Thread halter = new Thread(() -> {
            try {
                Thread.sleep(HALT_AFTER_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(1);
        }, "parent-watchdog-halt");
        // daemon threads keep running while shutdown hooks run, so this bounds a hanging graceful exit
        halter.setDaemon(true);
        halter.start();
        System.exit(0);
    }
}
