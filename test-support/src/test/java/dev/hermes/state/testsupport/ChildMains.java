package dev.hermes.state.testsupport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Entry points the runner's tests start in child JVMs. */
final class ChildMains {
    private ChildMains() {
    }

    /** Answers every stdin line with "got LINE", then "done" on stderr at end of input; exits with code args[0]. */
    static final class Echo {
        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                System.out.println("got " + line);
                System.out.flush();
            }
            System.err.println("done");
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** Prints the variables named in args (or "null") and the working folder. */
    static final class Environment {
        public static void main(String[] args) {
            for (String name : args) {
                System.out.println(System.getenv(name));
            }
            System.out.println(System.getProperty("user.dir"));
        }
    }

    /** Prints "started" and a line without its newline, then sleeps for a minute. */
    static final class Sleeper {
        public static void main(String[] args) throws Exception {
            System.out.print("started\nhalf a li");
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
