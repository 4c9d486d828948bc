package ams.neo4jlauncher;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.internal.helpers.HostnamePort;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

/**
 * Runs Neo4j Community embedded with only the Bolt connector, for development and tests.
 * stdout carries exactly one line, {@code NEO4J_READY bolt://host:port}, once Bolt accepts connections;
 * everything else goes to stderr. SIGTERM / SIGINT (and, when asked, end of stdin) shut the database down cleanly.
 */
public final class LocalNeo4j {
    private static final AtomicReference<DatabaseManagementService> RUNNING = new AtomicReference<>();

    private LocalNeo4j() {
    }

    public static void main(String[] args) {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(LocalNeo4j::stop, "local-neo4j-shutdown"));
        try {
            String url = start(options);
            System.out.println("NEO4J_READY " + url);
            System.out.flush();
        } catch (Throwable e) {
            System.err.println("NEO4J_FAILED " + e);
            e.printStackTrace(System.err);
            System.exit(1);
            return;
        }
        if (options.exitOnStdinClose()) {
            drain(System.in);
            System.err.println("stdin closed, shutting down");
            System.exit(0);
        }
        awaitForever();
    }

    private static String start(LaunchOptions o) throws IOException, InterruptedException {
        long began = System.nanoTime();
        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(o.home());
        if (o.boltThreads() > 0) {
            // Each running transaction holds one Bolt worker thread; past the cap a new one is refused (transient).
            builder.setConfig(BoltConnector.thread_pool_max_size, o.boltThreads())
                    .setConfig(BoltConnector.thread_pool_min_size, Math.min(2, o.boltThreads()));
        }
        DatabaseManagementService dbms = builder
                .setUserLogProvider(new Log4jLogProvider(System.err, Level.WARN))
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(o.host(), o.boltPort()))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(o.host(), o.boltPort()))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, o.auth())
                .setConfig(GraphDatabaseSettings.pagecache_memory, o.pageCacheBytes())
                // A query that builds huge lists or strings fails with a memory error instead of taking the heap.
                .setConfig(GraphDatabaseSettings.memory_transaction_max_size, o.txMemoryMaxBytes())
                // A server-side limit for every transaction, whether or not its client sets one (explore sets less).
                .setConfig(GraphDatabaseSettings.transaction_timeout, o.txTimeout())
                // Small, lazily grown transaction logs: a test database should not reserve 256 MB of disk up front.
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, 32L << 20)
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "64M size")
                .setConfig(GraphDatabaseInternalSettings.udc_network_enabled, false)
                // Netty waits a quiet period (seconds) before its event loops stop; nothing to wait for here.
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .build();
        RUNNING.set(dbms);
        System.err.println("databases started in " + millisSince(began) + " ms");

        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        if (o.auth()) {
            setPassword(system, o.password());
            System.err.println("password of user neo4j set after " + millisSince(began) + " ms");
        }
        HostnamePort bound = ((GraphDatabaseAPI) system).getDependencyResolver()
                .resolveDependency(ConnectorPortRegister.class)
                .getLocalAddress(ConnectorType.BOLT);
        String host = o.host().equals("0.0.0.0") ? "127.0.0.1" : o.host();
        int port = bound.getPort();
        awaitAccepting(host, port, 30_000);
        return "bolt://" + host + ":" + port;
    }

    /**
     * Embedded transactions run with full rights, so the system database accepts ALTER USER even though
     * nobody has logged in. This replaces the factory default ("neo4j", change required) on a fresh store and
     * makes the given password authoritative on an existing one.
     */
    private static void setPassword(GraphDatabaseService system, String password) {
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PLAINTEXT PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } catch (QueryExecutionException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains("cannot be the same")) {
                throw e;
            }
            // Already the current password. Its change-required flag is cleared on first start, nothing to do.
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static void awaitAccepting(String host, int port, long timeoutMillis) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 1000);
                return;
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("Bolt is not accepting connections on " + host + ":" + port, e);
                }
                Thread.sleep(100);
            }
        }
    }

    private static void stop() {
        DatabaseManagementService dbms = RUNNING.getAndSet(null);
        if (dbms != null) {
            System.err.println("shutting down Neo4j");
            dbms.shutdown();
            System.err.println("NEO4J_STOPPED");
        }
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // ignore input; only end of file matters
            }
        } catch (IOException ignored) {
            // a broken pipe means the parent is gone: same as end of file
        }
    }

    private static void awaitForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
