package dev.hermes.state.cli.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * JSON out, from plain Java values (Map, List, String, Long/BigInteger, Double, Boolean, null), with
 * Jackson's streaming API only: no object mapper to warm up on the command line's start-up path.
 * (JSON in: {@link dev.hermes.state.core.json.PythonJson}, the store's one reader.)
 * Output follows Python's {@code json.dumps} conventions where a script could notice: timestamps are
 * epoch-seconds floats ({@code 1773135600.123456}, never {@code 1.773E9}) and integral floats keep
 * their {@code .0}.
 */
public final class Json {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            // emoji as UTF-8, not as escaped surrogate pairs: readable in a terminal and by jq
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private Json() {
    }

    /** A generator writing UTF-8 to {@code out}; closing it flushes but leaves {@code out} open. */
    public static JsonGenerator generator(OutputStream out) {
        try {
            JsonGenerator generator = FACTORY.createGenerator(out);
            generator.setRootValueSeparator(null);
            return generator;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code value} as one JSON document followed by a newline, and flushes. */
    public static void writeLine(OutputStream out, Object value) {
        try (JsonGenerator generator = generator(out)) {
            write(generator, value);
            generator.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flush(out);
    }

    /** The JSON text of {@code value} (for tests and messages). */
    public static String toJson(Object value) {
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        try (JsonGenerator generator = generator(buffer)) {
            write(generator, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Writes a plain Java value; {@link Instant}s become epoch-seconds floats. */
    public static void write(JsonGenerator generator, Object value) throws IOException {
        if (value == null) {
            generator.writeNull();
        } else if (value instanceof String text) {
            generator.writeString(text);
        } else if (value instanceof Boolean bool) {
            generator.writeBoolean(bool);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            generator.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger big) {
            generator.writeNumber(big);
        } else if (value instanceof BigDecimal decimal) {
            generator.writeNumber(decimal.toPlainString());
        } else if (value instanceof Double || value instanceof Float) {
            generator.writeNumber(pythonFloat(((Number) value).doubleValue()));
        } else if (value instanceof Instant instant) {
            generator.writeNumber(epochSeconds(instant));
        } else if (value instanceof Map<?, ?> map) {
            generator.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                generator.writeFieldName(String.valueOf(entry.getKey()));
                write(generator, entry.getValue());
            }
            generator.writeEndObject();
        } else if (value instanceof Iterable<?> items) {
            generator.writeStartArray();
            for (Object item : items) {
                write(generator, item);
            }
            generator.writeEndArray();
        } else if (value instanceof Object[] items) {
            write(generator, List.of(items));
        } else {
            generator.writeString(String.valueOf(value));
        }
    }

    /**
     * A double as Python's {@code repr} prints it where it matters: {@code 3.0} not {@code 3},
     * {@code 0.0001} not {@code 1.0E-4}, {@code 1773135600.5} not {@code 1.7731356005E9}.
     * NaN and infinities, which JSON cannot carry, become {@code null}.
     */
    public static String pythonFloat(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        double magnitude = Math.abs(value);
        if (value == 0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
            String plain = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        return Double.toString(value).replace("E", "e");
    }

    /** Epoch seconds with microsecond precision: {@code 1773135600.123456}, {@code 1773135600.0}. */
    public static String epochSeconds(Instant instant) {
        long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND),
                instant.getNano() / 1_000L);
        BigDecimal seconds = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
        if (seconds.scale() <= 0) {
            seconds = seconds.setScale(1);
        }
        return seconds.toPlainString();
    }

    private static void flush(OutputStream out) {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
