package dev.sextant.cli;

/**
 * The exit codes of every {@code sextant} command, as the root command's help lists them. A holder of its own so that
 * the commands do not read them from {@link SextantCommand}, which lists the commands.
 */
final class ExitCodes {

    static final int OK = 0;
    static final int FAILURE = 1;
    /** Bad usage or configuration; the message names the option or key. */
    static final int USAGE = 2;
    /** A cluster refused Sextant's principal something it needs; the message names the ACL to grant. */
    static final int NOT_AUTHORIZED = 3;

    private ExitCodes() {
    }
}
