package dev.hermes.state.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The real state.db files the Python agent wrote ({@code ../shared/fixtures/hermes/}, beside the
 * checkout). Tests always work on a copy: the originals are never opened.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /**
     * The fixture folder: {@code -Dhermes.fixtures=DIR} if given, else the first {@code shared/fixtures/hermes}
     * found beside the checkout or any folder above it (so git worktrees find it too).
     */
    public static Path folder() {
        String override = System.getProperty("hermes.fixtures");
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath();
        }
        Path start = Path.of(System.getProperty("hermes.repo.root", ".")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("fixtures").resolve("hermes");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("Fixture folder shared/fixtures/hermes not found beside " + start
                + " or above it; pass -Dhermes.fixtures=DIR");
    }

    /** The original fixture (read it, never open it with SQLite). */
    public static Path original(String name) {
        Path file = folder().resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Missing fixture " + file);
        }
        return file;
    }

    /** Copies {@code state-vN.db} (or any fixture name) into {@code dir}, writable by its owner only. */
    public static Path copy(String name, Path dir) {
        try {
            Path target = dir.resolve(name);
            try (InputStream in = Files.newInputStream(original(name))) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String sha256(Path file) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = Files.newInputStream(file)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
