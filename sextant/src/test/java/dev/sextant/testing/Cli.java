package dev.sextant.testing;

import dev.sextant.cli.SextantCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code sextant <args>} in this JVM, as the launcher would, and keeps what it printed. */
public final class Cli {

    /** The exit code and what the command wrote on stdout and stderr. */
    public record Run(int exit, String out, String err) {
    }

    private Cli() {
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SextantCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** {@code kill -<signal> <pid>} (STOP, CONT), failing the test if it cannot be sent. */
    public static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " failed");
        }
    }
}
