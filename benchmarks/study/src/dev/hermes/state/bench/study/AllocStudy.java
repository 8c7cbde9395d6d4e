package dev.hermes.state.bench.study;

import dev.hermes.state.bench.data.ReadSample;
import dev.hermes.state.bench.workload.W4Read;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * W4's heap allocation per read, per ReadStudy variant (load-independent, unlike times): bytes allocated by
 * the reading thread over the 200 reads, after 3 warm-up passes, divided by 200. Allocation drives the young
 * collections whose pauses land inside timed reads. Usage: AllocStudy DB.
 */
public final class AllocStudy {
    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        List<String> ids = ReadSample.sessionIds(5000);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        List<AutoCloseable> open = new ArrayList<>();
        Map<String, W4Read.Read> variants = ReadStudy.variants(db, open);
        for (Map.Entry<String, W4Read.Read> variant : variants.entrySet()) {
            for (int warm = 0; warm < 3; warm++) {
                for (String id : ids) {
                    variant.getValue().run(id);
                }
            }
            long before = threads.getThreadAllocatedBytes(self);
            long messages = 0;
            for (String id : ids) {
                messages += variant.getValue().run(id).size();
            }
            long bytes = threads.getThreadAllocatedBytes(self) - before;
            System.out.printf("%-20s %,9d bytes per read, %,6d per message%n", variant.getKey(), bytes / ids.size(),
                    bytes / messages);
        }
        for (AutoCloseable c : open) {
            c.close();
        }
        System.exit(0);
    }
}
