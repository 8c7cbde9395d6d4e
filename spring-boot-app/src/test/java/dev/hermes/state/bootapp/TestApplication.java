package dev.hermes.state.bootapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application that only adds the starter: the store, its chat memory and its health come from the auto-configuration. */
@SpringBootApplication
public class TestApplication {
}
