package dev.hermes.state.serve;

/**
 * A request the server answers with one typed JSON error ({@code {"error":{"type":..,"message":..}}})
 * instead of a result. The message is written for the user and never carries a stack trace.
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;

    ApiException(int status, String type, String message) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, "bad_request", message);
    }

    static ApiException notFound(String message) {
        return new ApiException(404, "not_found", message);
    }

    int status() {
        return status;
    }

    String type() {
        return type;
    }
}
