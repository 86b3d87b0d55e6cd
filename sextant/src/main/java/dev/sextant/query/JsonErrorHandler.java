package dev.sextant.query;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a URI it cannot parse or that leaves the root, headers too large, ...) in the API's error
 * shape, {@code {"error": "..."}}, instead of Jetty's HTML page; no stack trace, no server version.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        if (status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
            // what Jetty answers to a request line it cannot read (a bare LF in the target reads as HTTP/0.9):
            // the client's mistake, so a 4xx like every other bad request
            status = HttpStatus.BAD_REQUEST_400;
            response.setStatus(status);
        }
        Object message = request.getAttribute(ERROR_MESSAGE);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Reply.JSON_TYPE);
        response.write(true, ByteBuffer.wrap(body(status, message == null ? null : message.toString())), callback);
        return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, Reply.JSON_TYPE);
        return ByteBuffer.wrap(body(status, reason));
    }

    private static byte[] body(int status, String message) {
        String reason = HttpStatus.getMessage(status);
        return Reply.json(status, new Views.ErrorBody("bad request: " + status + " " + reason
                + (message == null || message.equals(reason) ? "" : " (" + message + ")"))).body();
    }
}
