package dev.sextant.query;

import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The connector {@link QueryServer} listens with: HTTP/1.1, or HTTPS with the API's TLS context and its
 * client-certificate rule. Address, limits and timeouts are the server's to set.
 */
final class QueryConnectors {

    private QueryConnectors() {
    }

    /**
     * @param tls            the API's TLS context, or empty for plain HTTP
     * @param clientAuth     none, requested or required (client certificates, with TLS)
     * @param maxHeaderBytes the largest request head accepted
     */
    static ServerConnector create(Server server, Optional<SSLContext> tls, String clientAuth, int maxHeaderBytes) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(maxHeaderBytes);
        // group names may hold any character, '/' and '%' included: the API decodes segments itself
        http.setUriCompliance(UriCompliance.UNSAFE);
        HttpConnectionFactory httpFactory = new HttpConnectionFactory(http);
        if (tls.isEmpty()) {
            return new ServerConnector(server, 1, 1, httpFactory);
        }
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(tls.get());
        ssl.setNeedClientAuth(clientAuth.equals("required"));
        ssl.setWantClientAuth(clientAuth.equals("requested"));
        ssl.setSniRequired(false);
        http.addCustomizer(new SecureRequestCustomizer(false));
        return new ServerConnector(server, 1, 1, new SslConnectionFactory(ssl, "http/1.1"), httpFactory);
    }
}
