package dev.hermes.state.bench.study;

import java.time.Duration;
import java.time.Instant;

/** Prints the time from process start (as /proc reports it) to main: the JVM's own start-up with these options. */
public final class StartOnly {
    public static void main(String[] args) {
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        System.out.println("process start->main " + Duration.between(started, Instant.now()).toMillis() + " ms");
    }
}
