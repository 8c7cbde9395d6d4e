package dev.hermes.state.bootapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application that only adds the starter: the store comes from the auto-configuration. */
@SpringBootApplication
public class TestApplication {
}
