package dev.hermes.state.migrations;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoreLocationTest {
    @Test
    void aPathIsAFileShownAsWritten() {
        StoreLocation location = StoreLocation.parse("data/state.db", null);
        assertFalse(location.isServer());
        assertEquals(Path.of("data/state.db"), location.file());
        assertEquals("data/state.db", location.toString());
        assertThrows(IllegalStateException.class, location::server);
    }

    @Test
    void aUrlIsAServerInItsSchemaShownWithoutThePassword() {
        StoreLocation byDefault = StoreLocation.parse("postgresql://hermes:s3cret@db:6543/app", null);
        assertTrue(byDefault.isServer());
        assertEquals("hermes", byDefault.server().schema());
        assertEquals("postgresql://hermes@db:6543/app (schema hermes)", byDefault.toString());
        StoreLocation named = StoreLocation.parse("jdbc:postgresql://db/app?user=hermes&password=s3cret", "team_a");
        assertEquals("team_a", named.server().schema());
        assertFalse(named.toString().contains("s3cret"), named.toString());
        assertThrows(IllegalStateException.class, named::file);
    }

    @Test
    void badInputIsTyped() {
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.parse(null, null));
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.parse("state.db", "hermes"));
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.parse("postgresql://db/app", "Bad-Name"));
        InvalidArgumentException badPort = assertThrows(InvalidArgumentException.class,
                () -> StoreLocation.parse("postgresql://u:s3cret@db:99999/app", null));
        assertFalse(badPort.getMessage().contains("s3cret"), badPort.getMessage());
    }
}
