package dev.hermes.state.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The real state.db files the Python Hermes agent wrote, one per schema version, and their
 * MANIFEST.md. They live in this module ({@code test-support/src/main/resources/fixtures/hermes/})
 * and reach every module's tests on the class path, so no test depends on its working directory
 * or on anything beside the checkout. Tests get a private copy in their own folder; the originals
 * are only ever read.
 */
public final class Fixtures {
    /** Every fixture file, oldest schema first. */
    public static final List<String> NAMES = List.of("state-v1.db", "state-v2.db", "state-v3-foreign.db",
            "state-v4.db", "state-v5.db", "state-v6.db");

    private static final String FOLDER = "/fixtures/hermes/";

    private Fixtures() {
    }

    /** A copy of fixture {@code name} as {@code dir/name} (replacing one there), readable and writable by its owner only. */
    public static Path copy(String name, Path dir) {
        Path target = dir.resolve(name);
        try (InputStream in = open(name)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy fixture " + name + " to " + dir, e);
        }
    }

    /** sha256 (hex) of the original fixture {@code name}, as MANIFEST.md gives it. */
    public static String originalSha256(String name) {
        try (InputStream in = open(name)) {
            return sha256(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** MANIFEST.md: how the files were made and what the agent answered on each. */
    public static String manifest() {
        try (InputStream in = open("MANIFEST.md")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** sha256 (hex) of any file: the tests' proof that something left a file byte-for-byte unchanged. */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** sha256 (hex) of some bytes: e.g. a logical dump of a store, to compare what two states of it hold. */
    public static String sha256(byte[] content) {
        try {
            return sha256(new ByteArrayInputStream(content));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    private static InputStream open(String name) {
        InputStream in = Fixtures.class.getResourceAsStream(FOLDER + name);
        if (in == null) {
            throw new IllegalArgumentException("no fixture " + name + " on the class path (test-support" + FOLDER + ")");
        }
        return in;
    }

    private static String sha256(InputStream in) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
            digest.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
