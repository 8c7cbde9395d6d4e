package dev.hermes.state.serve;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where the server listens and who may use it. A host other than a loopback address exposes the store to
 * the network, so it is refused unless an access token is set; with a token every request needs it.
 *
 * @param host  the address to bind (default 127.0.0.1)
 * @param port  0 to 65535; 0 picks a free port (the tests' choice)
 * @param token the access token, null for none (then only loopback hosts are allowed)
 */
public record ServeOptions(String host, int port, @Nullable String token) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9119;
    /** The environment variable the CLI reads the token from when {@code --token} is not given. */
    public static final String TOKEN_ENV = "HERMES_STATE_SERVE_TOKEN";

    public ServeOptions {
        if (host == null || host.isBlank()) {
            throw new InvalidArgumentException("The host must not be empty");
        }
        host = host.strip();
        if (port < 0 || port > 65_535) {
            throw new InvalidArgumentException("The port must be between 0 and 65535, got " + port);
        }
        if (token != null && token.isEmpty()) {
            token = null;
        }
        if (token != null && (token.length() < 16 || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
            throw new InvalidArgumentException("The access token must be at least 16 printable ASCII characters"
                    + " without spaces");
        }
        if (token == null && !isLoopback(host)) {
            throw new InvalidArgumentException("Serving on " + host + " exposes the store beyond this machine: set an"
                    + " access token (--token or " + TOKEN_ENV + ") or serve on 127.0.0.1");
        }
    }

    public static ServeOptions loopback(int port) {
        return new ServeOptions(DEFAULT_HOST, port, null);
    }

    /** True for localhost and the loopback addresses, decided without a DNS lookup. */
    static boolean isLoopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!isLiteralAddress(bare)) {
            return false;
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** An IPv4 or IPv6 literal (so that {@link InetAddress#getByName} never resolves a name). */
    static boolean isLiteralAddress(String host) {
        return host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") || (host.contains(":") && host.matches("[0-9a-fA-F:.%]+"));
    }
}
