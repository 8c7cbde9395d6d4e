package dev.hermes.state.cli.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The class list of several training runs: their lines in order, each once, the JVM's comments left out. */
class ClassListMergeTest {
    @TempDir
    Path dir;

    @Test
    void keepsTheFirstRunsOrderAndAddsWhatOnlyTheSecondLoaded() throws Exception {
        Path demo = Files.write(dir.resolve("demo.lst"), List.of(
                "# NOTE: Do not modify this file.",
                "java/lang/Object",
                "picocli/CommandLine",
                "@lambda-proxy a/B run ()Ljava/lang/Runnable; ()V REF_invokeStatic a/B lambda$0 ()V ()V",
                ""), StandardCharsets.UTF_8);
        Path sessions = Files.write(dir.resolve("sessions.lst"), List.of(
                "# NOTE: Do not modify this file.",
                "java/lang/Object",
                "sun/reflect/generics/tree/ClassSignature",
                "@lambda-proxy a/B run ()Ljava/lang/Runnable; ()V REF_invokeStatic a/B lambda$0 ()V ()V",
                "picocli/CommandLine"), StandardCharsets.UTF_8);
        Path merged = dir.resolve("classes.lst");

        ClassListMerge.main(new String[] {merged.toString(), demo.toString(), sessions.toString()});

        assertEquals(List.of(
                "java/lang/Object",
                "picocli/CommandLine",
                "@lambda-proxy a/B run ()Ljava/lang/Runnable; ()V REF_invokeStatic a/B lambda$0 ()V ()V",
                "sun/reflect/generics/tree/ClassSignature"), Files.readAllLines(merged, StandardCharsets.UTF_8));
    }
}
