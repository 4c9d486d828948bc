package ams.neo4jlauncher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Launcher settings. Each one comes from a command-line flag or, failing that, an environment variable
 * (the flag wins). The password is best passed through the environment so it does not show up in `ps`.
 */
record LaunchOptions(
        Path home, String host, int boltPort, boolean auth, String password, long pageCacheBytes, boolean exitOnStdinClose,
        long txMemoryMaxBytes, Duration txTimeout, int boltThreads) {

    static final String USAGE = String.join("\n",
            "usage: LocalNeo4j --home <dir> [options]",
            "  --home <dir>            data and logs directory (env NEO4J_LAUNCHER_HOME)",
            "  --host <addr>           Bolt listen address, default 127.0.0.1 (env NEO4J_LAUNCHER_HOST)",
            "  --bolt-port <n>         Bolt port, 0 picks a free one, default 7687 (env NEO4J_LAUNCHER_BOLT_PORT)",
            "  --password <pw>         password of user neo4j, at least 8 characters (env NEO4J_LAUNCHER_PASSWORD)",
            "  --no-auth               disable authentication (env NEO4J_LAUNCHER_AUTH=false)",
            "  --page-cache <size>     page cache, e.g. 128m, 1g, default 128m (env NEO4J_LAUNCHER_PAGE_CACHE)",
            "  --exit-on-stdin-close   shut down when stdin reaches end of file (env NEO4J_LAUNCHER_EXIT_ON_STDIN_CLOSE=true)",
            "  --tx-memory-max <size>  memory one transaction may use, e.g. 256m; 0 for no limit, default 256m",
            "                          (env NEO4J_LAUNCHER_TX_MEMORY_MAX)",
            "  --tx-timeout <time>     longest a transaction may run unless its client asks for less, e.g. 90s or 5m;",
            "                          0 for no limit, default 120s (env NEO4J_LAUNCHER_TX_TIMEOUT)",
            "  --bolt-threads <n>      most threads serving Bolt connections (one per running transaction);",
            "                          0 for Neo4j's default (400), default 0 (env NEO4J_LAUNCHER_BOLT_THREADS)",
            "Heap is capped with the JVM's own -Xmx, processors with -XX:ActiveProcessorCount.");

    static LaunchOptions parse(String[] args, Map<String, String> env) {
        String home = env.get("NEO4J_LAUNCHER_HOME");
        String host = env.getOrDefault("NEO4J_LAUNCHER_HOST", "127.0.0.1");
        String port = env.getOrDefault("NEO4J_LAUNCHER_BOLT_PORT", "7687");
        String password = env.get("NEO4J_LAUNCHER_PASSWORD");
        boolean auth = !"false".equalsIgnoreCase(env.getOrDefault("NEO4J_LAUNCHER_AUTH", "true"));
        String pageCache = env.getOrDefault("NEO4J_LAUNCHER_PAGE_CACHE", "128m");
        boolean stdinClose = "true".equalsIgnoreCase(env.getOrDefault("NEO4J_LAUNCHER_EXIT_ON_STDIN_CLOSE", "false"));
        String txMemory = env.getOrDefault("NEO4J_LAUNCHER_TX_MEMORY_MAX", "256m");
        String txTimeout = env.getOrDefault("NEO4J_LAUNCHER_TX_TIMEOUT", "120s");
        String boltThreads = env.getOrDefault("NEO4J_LAUNCHER_BOLT_THREADS", "0");

        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--home" -> home = value(args, ++i, arg);
                case "--host" -> host = value(args, ++i, arg);
                case "--bolt-port" -> port = value(args, ++i, arg);
                case "--password" -> password = value(args, ++i, arg);
                case "--no-auth" -> auth = false;
                case "--page-cache" -> pageCache = value(args, ++i, arg);
                case "--exit-on-stdin-close" -> stdinClose = true;
                case "--tx-memory-max" -> txMemory = value(args, ++i, arg);
                case "--tx-timeout" -> txTimeout = value(args, ++i, arg);
                case "--bolt-threads" -> boltThreads = value(args, ++i, arg);
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown argument " + arg + "\n" + USAGE);
            }
        }
        if (home == null || home.isBlank()) {
            throw new IllegalArgumentException("--home (or NEO4J_LAUNCHER_HOME) is required\n" + USAGE);
        }
        if (auth && (password == null || password.length() < 8)) {
            throw new IllegalArgumentException(
                    "a password of at least 8 characters is required when auth is on (--password or NEO4J_LAUNCHER_PASSWORD)");
        }
        int boltPort = Integer.parseInt(port);
        if (boltPort < 0 || boltPort > 65535) {
            throw new IllegalArgumentException("bolt port out of range: " + port);
        }
        int threads;
        try {
            threads = Integer.parseInt(boltThreads.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--bolt-threads needs a whole number, got " + boltThreads);
        }
        if (threads < 0) {
            throw new IllegalArgumentException("--bolt-threads must be 0 or more, got " + boltThreads);
        }
        return new LaunchOptions(Path.of(home).toAbsolutePath(), host, boltPort, auth, auth ? password : null,
                parseSize(pageCache), stdinClose, parseSize(txMemory), parseDuration(txTimeout), threads);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    /** "90s", "5m", "1h" or a plain number of seconds; 0 means no limit. */
    static Duration parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
        String digits = Character.isDigit(last) ? s : s.substring(0, s.length() - 1);
        try {
            long n = Long.parseLong(digits);
            return switch (last) {
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> Duration.ofSeconds(n);
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: " + text + " (use e.g. 90s or 5m)");
        }
    }

    /** "128m", "1g", "512k" or a plain number of bytes. */
    static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        long factor = 1;
        char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
        switch (last) {
            case 'k' -> factor = 1L << 10;
            case 'm' -> factor = 1L << 20;
            case 'g' -> factor = 1L << 30;
            default -> { }
        }
        String digits = factor == 1 ? s : s.substring(0, s.length() - 1);
        try {
            return Long.parseLong(digits) * factor;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size: " + text + " (use e.g. 128m or 1g)");
        }
    }
}
