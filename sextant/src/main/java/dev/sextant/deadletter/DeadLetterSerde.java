package dev.sextant.deadletter;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** JSON for dead-letter values, written and read with Jackson. */
public final class DeadLetterSerde implements Serde<DeadLetterRecord> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Serializer<DeadLetterRecord> serializer() {
        return (topic, value) -> {
            try {
                return value == null ? null : JSON.writeValueAsBytes(value);
            } catch (IOException e) {
                throw new SerializationException("cannot write dead-letter record " + value, e);
            }
        };
    }

    @Override
    public Deserializer<DeadLetterRecord> deserializer() {
        return (topic, bytes) -> {
            try {
                return bytes == null ? null : JSON.readValue(bytes, DeadLetterRecord.class);
            } catch (IOException e) {
                throw new SerializationException("not a dead-letter record: " + new String(bytes,
                        StandardCharsets.UTF_8), e);
            }
        };
    }
}
