package dev.sextant.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The documents of the commands' {@code -o json} (one per line) and {@code -o yaml} (the same tree) modes. */
final class Json {

    private static final ObjectMapper JSON = new ObjectMapper();
    // block style with indented sequences (as yamllint wants them), no leading ---, quotes only where YAML needs
    // them, strings that read as numbers quoted: read back, the YAML is the tree the JSON is. Strimzi's KafkaUsers
    // (config acls -o strimzi) are written with it too.
    static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();

    private Json() {
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** {@code value} as a YAML document, without its final line break. */
    static String yaml(Object value) {
        try {
            // through the JSON tree: the YAML holds exactly what -o json prints
            String yaml = YAML.writeValueAsString(JSON.valueToTree(value));
            return yaml.endsWith("\n") ? yaml.substring(0, yaml.length() - 1) : yaml;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as YAML", e);
        }
    }
}
