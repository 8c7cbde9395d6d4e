package dev.hermes.state.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resident set sizes of the running process from {@code /proc/self/status} (Linux), in MiB; -1 elsewhere. */
public final class ProcStatus {
    private ProcStatus() {
    }

    /** Current resident set size ({@code VmRSS}). */
    public static double rssMb() {
        return fieldMb("VmRSS:");
    }

    /** Peak resident set size of this process ({@code VmHWM}). */
    public static double peakRssMb() {
        return fieldMb("VmHWM:");
    }

    private static double fieldMb(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    String[] parts = line.substring(field.length()).trim().split("\\s+", -1);
                    return Long.parseLong(parts[0]) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
