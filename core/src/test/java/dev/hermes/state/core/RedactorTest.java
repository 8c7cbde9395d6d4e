package dev.hermes.state.core;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The redaction corpus: real-looking secrets of every kind the Redactor knows are masked (the secret's
 * body is gone, the visible prefix stays), and look-alikes that are ordinary content stay byte for
 * byte. The secrets are made up in the shapes the providers issue; none is a live credential.
 */
public class RedactorTest {
    /** A secret, embedded in a sentence, and the text that must remain visible of it. */
    public record Secret(String text, String secret, String kept) {
    }

    public static List<Secret> secrets() {
        return List.of(
                new Secret("my key is sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678 ok",
                        "Abc123Def456Ghi789Jkl012Mno345Pqr678", "sk-proj-[REDACTED]"),
                new Secret("OPENAI_API_KEY=sk-4f9QmT2xV8pLw3Rz7KyN1bHc6DeJ0aUgSsFiYo5tMnA",
                        "4f9QmT2xV8pLw3Rz7KyN1bHc6DeJ0aUgSsFiYo5tMnA", "sk-[REDACTED]"),
                new Secret("export ANTHROPIC_API_KEY=\"sk-ant-api03-x7Yq_Zr2-Kp9LmN4vB6cD8eF0gH1jK3lM5nP7qR9sT1uV3wX5yZ7aB9cD1eF3gH5-AA\"",
                        "x7Yq_Zr2-Kp9LmN4vB6cD8eF0gH1jK3lM5nP7qR9sT1uV3wX5yZ7aB9cD1eF3gH5-AA", "sk-ant-[REDACTED]"),
                new Secret("maps key AIzaSyD3xK9vQ2mL7pR4tW8yB1nC6fH0jZ5sE_a in the config",
                        "SyD3xK9vQ2mL7pR4tW8yB1nC6fH0jZ5sE_a", "AIza[REDACTED]"),
                new Secret("git remote with ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
                        "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "ghp_[REDACTED]"),
                new Secret("oauth gho_Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9",
                        "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9", "gho_[REDACTED]"),
                new Secret("fine-grained github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLMNOPqrstuv",
                        "11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLMNOPqrstuv", "github_pat_[REDACTED]"),
                new Secret("slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx here",
                        "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-[REDACTED]"),
                new Secret("aws id AKIAIOSFODNN7EXAMPLE and more", "IOSFODNN7EXAMPLE", "AKIA[REDACTED]"),
                new Secret("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED]"),
                new Secret("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc!", "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_[REDACTED]"),
                new Secret("restricted rk_live_51H8kLmNoPqRsTuVwXyZ012345", "51H8kLmNoPqRsTuVwXyZ012345", "rk_live_[REDACTED]"),
                new Secret("HF_TOKEN hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "hf_[REDACTED]"),
                new Secret("jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
                        "eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJ[REDACTED] end"),
                new Secret("curl -H 'Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c' https://api.example.com",
                        "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c", "Authorization: Bearer [REDACTED]"),
                new Secret("{\"headers\": {\"Authorization\": \"Bearer abc.DEF-ghi_JKL~mno+pqr/stu=\"}}",
                        "abc.DEF-ghi_JKL~mno+pqr/stu", "\"Authorization\": \"Bearer [REDACTED]"),
                new Secret("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq8Tn2Kp\nQ9rS0tU1vW2xY3zA4bC5dE6\n-----END RSA PRIVATE KEY-----\nafter",
                        "MIIEowIBAAKCAQEA7bq8Tn2Kp", "-----BEGIN RSA PRIVATE KEY-----[REDACTED]\nafter"),
                new Secret("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
                        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]"),
                new Secret("db at postgresql://hermes:S3cr3t-Pa55w0rd@db.internal:5432/state ok",
                        "S3cr3t-Pa55w0rd", "postgresql://hermes:[REDACTED]@db.internal:5432/state ok"),
                new Secret("https://deploy:hunter2@git.example.com/repo.git", "hunter2",
                        "https://deploy:[REDACTED]@git.example.com/repo.git"),
                new Secret("config: api_key: \"a1b2c3d4e5f6g7h8i9j0\"", "a1b2c3d4e5f6g7h8i9j0", "api_key: \"[REDACTED]\""),
                new Secret("{\"token\": \"tok3n-VaLue-99887766\"}", "tok3n-VaLue-99887766", "\"token\": \"[REDACTED]\""));
    }

    @ParameterizedTest
    @MethodSource("secrets")
    void secretsAreMasked(Secret secret) {
        String redacted = Redactor.redact(secret.text());
        assertFalse(redacted.contains(secret.secret()), redacted);
        assertTrue(redacted.contains(secret.kept()), redacted);
        assertTrue(Redactor.hasSecret(secret.text()));
        assertEquals(redacted, Redactor.redact(redacted), "masking twice changes nothing more");
    }

    /** Ordinary content that looks like a secret to a careless pattern. */
    public static List<String> lookAlikes() {
        return List.of(
                "a risk-free plan, a task-based flow and a desk-mounted arm",
                "sk-learn is a library; so is scikit-learn",
                "commit 3f2a9c1d8b7e6f5a4c3b2a1908f7e6d5c4b3a291 fixed it",
                "session 7c9e6679-7425-40de-944b-e07fc1f90ae7 resumed",
                "the ghp plugin and the ghpages branch; gho is a word; hf_small is short",
                "write to bob.smith+hermes@example.com or see https://docs.example.com/guide?x=1#part",
                "http://localhost:8080/v1/models and ssh://git@github.com/org/repo.git",
                "AKIA is a prefix; AKIAshort is not a key",
                "max_tokens=4096 and token_count: 12 and input_tokens = 1378",
                "password: is required (see the password field); the secret is patience",
                "Bearer tokens are explained in RFC 6750",
                "eyJ alone is not a token, nor is eyJhbGciOiJIUzI1NiJ9 by itself",
                "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
                "{\"type\": \"image_url\", \"image_url\": {\"url\": \"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/AKIAIOSFODNN7EXAMPLE+sk-abcdefghijklmnopqrstuv/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/\"}}",
                "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
                "数据库迁移 🚀 Résumé éditing");
    }

    @ParameterizedTest
    @MethodSource("lookAlikes")
    void lookAlikesStay(String text) {
        assertEquals(text, Redactor.redact(text));
        assertFalse(Redactor.hasSecret(text));
    }

    @Test
    void everySecretOfOneTextIsMasked() {
        String text = "a sk-proj-Abc123Def456Ghi789Jkl012Mno345 b ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R c";
        assertEquals("a sk-proj-[REDACTED] b ghp_[REDACTED] c", Redactor.redact(text));
    }
}
