package dev.hermes.state.serve;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.time.Instant;

/**
 * The API's JSON: maps and lists of plain values, timestamps as the store keeps them (epoch seconds as a
 * float, as the agent's dashboard answers).
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new SimpleModule()
            .addSerializer(Instant.class, new JsonSerializer<>() {
                @Override
                public void serialize(Instant value, JsonGenerator out, SerializerProvider provider) throws IOException {
                    out.writeNumber(new java.math.BigDecimal(Double.toString(epochSeconds(value))).toPlainString());
                }
            }));

    private Json() {
    }

    static byte[] bytes(Object document) {
        try {
            return MAPPER.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An answer could not be written as JSON", e);
        }
    }

    /** Seconds since the epoch with the microseconds the store keeps. */
    static double epochSeconds(Instant instant) {
        return instant.getEpochSecond() + instant.getNano() / 1e9;
    }
}
