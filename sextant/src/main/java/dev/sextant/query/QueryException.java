package dev.sextant.query;

/**
 * An answer other than 200, decided by the API: the transport turns it into a JSON body {@code {"error": message}}
 * with the status (and {@code Retry-After} for 503).
 */
public final class QueryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final Integer retryAfterSeconds;

    private QueryException(int status, String message, Integer retryAfterSeconds, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** 400: a parameter is missing or malformed; the message names it. */
    public static QueryException badRequest(String message) {
        return new QueryException(400, message, null, null);
    }

    /** 404: an unknown path, group, or offset nothing translates. */
    public static QueryException notFound(String message) {
        return new QueryException(404, message, null, null);
    }

    /** 405: a known path with a method other than GET. */
    public static QueryException methodNotAllowed(String method) {
        return new QueryException(405, "method " + method + " not allowed; use GET", null, null);
    }

    /** 503 with {@code Retry-After: 1}: rebalancing, restoring, or an instance that cannot be reached right now. */
    public static QueryException unavailable(String message) {
        return new QueryException(503, message, 1, null);
    }

    public static QueryException unavailable(String message, Throwable cause) {
        return new QueryException(503, message, 1, cause);
    }

    public int status() {
        return status;
    }

    /** Seconds for a {@code Retry-After} header, or null for none. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
