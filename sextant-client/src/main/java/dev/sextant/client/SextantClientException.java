package dev.sextant.client;

/**
 * A Sextant HTTP API call that did not give an answer: an error status (400 bad parameter, 404 unknown group or
 * untranslatable offset, 500), or no instance answered before the deadline ({@link #status()} -1 or the last 503).
 */
public class SextantClientException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public SextantClientException(int status, String message) {
        super(message);
        this.status = status;
    }

    public SextantClientException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status of the last answer, or -1 when no instance answered at all. */
    public int status() {
        return status;
    }

    /** True for a 404: the group is not known to Sextant, or nothing translates the offset. */
    public boolean notFound() {
        return status == 404;
    }
}
