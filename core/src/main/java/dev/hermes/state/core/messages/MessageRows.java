package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.rows.StoredContent;
import org.jooq.Field;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;

/**
 * Whole message rows ({@code SELECT *} in the agent's reads) selected and read by column position: the
 * hot reads make no jOOQ record per row. Every row has the same 19 columns whatever the file holds: a
 * column it lacks is selected as the agent's default for it (NULL; {@code observed} 0, {@code active}
 * 1, {@code compacted} 0), so one reader serves every shape.
 */
final class MessageRows {
    private MessageRows() {
    }

    /** The columns of a whole row, in the order {@link #read} reads them. */
    static List<Field<?>> columns(StoreSchema schema) {
        List<Field<?>> columns = new ArrayList<>(List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT,
                MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT,
                MESSAGES.FINISH_REASON, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS));
        columns.add(orNull(schema, MESSAGES.REASONING_CONTENT));
        columns.add(orNull(schema, MESSAGES.CODEX_MESSAGE_ITEMS));
        columns.add(orNull(schema, MESSAGES.PLATFORM_MESSAGE_ID));
        columns.add(flag(schema, MESSAGES.OBSERVED, 0));
        columns.add(flag(schema, MESSAGES.ACTIVE, 1));
        columns.add(flag(schema, MESSAGES.COMPACTED, 0));
        return columns;
    }

    /** The column, or NULL in its place where the file lacks it. */
    static Field<?> orNull(StoreSchema schema, TableField<?, ?> column) {
        return schema.has(column) ? column : DSL.inline((String) null, SQLDataType.CLOB).as(column.getName());
    }

    /** A flag as the stored integer (not through the converter), or its default where the file lacks it. */
    static Field<Long> flag(StoreSchema schema, TableField<?, Boolean> column, long absent) {
        return schema.has(column) ? raw(column) : DSL.inline(absent).as(column.getName());
    }

    /** A flag column by its bare name, as the stored integer: the target of an UPDATE's SET. */
    static Field<Long> column(TableField<?, Boolean> column) {
        return DSL.field(DSL.name(column.getName()), SQLDataType.BIGINT);
    }

    /** The stored integer of a flag column, to compare as the agent does ({@code active = 1}). */
    static Field<Long> raw(TableField<?, Boolean> column) {
        return DSL.field(column.getQualifiedName(), SQLDataType.BIGINT);
    }

    /**
     * A row of {@link #columns}; {@code decode}: the rules of schema 17 (structured content decoded), else
     * the stored text as it is.
     */
    @SuppressWarnings("NullAway") // id, session_id, role and timestamp are NOT NULL in the schema
    static Message read(ResultSet row, boolean decode) throws SQLException {
        long stored = row.getLong(9);
        Long tokenCount = row.wasNull() ? null : stored;
        String content = text(row, 4);
        return Rows.message(row.getLong(1), text(row, 2), text(row, 3), content(content, decode), text(row, 5),
                text(row, 6), text(row, 7), EpochSeconds.instant(row.getDouble(8)), tokenCount, text(row, 10),
                text(row, 11), text(row, 12), text(row, 13), text(row, 14), text(row, 15), text(row, 16),
                row.getLong(17) != 0, row.getLong(18) != 0, row.getLong(19) != 0);
    }

    /** Stored content as the rules say: decoded (schema 17), or the stored text itself (schema 6). */
    static @Nullable MessageContent content(@Nullable String stored, boolean decode) {
        return decode ? StoredContent.decode(stored) : MessageContent.text(stored);
    }

    /**
     * A TEXT column: its UTF-8 bytes from the driver, decoded here. Measured faster per row than the
     * driver's getString; NULL stays null and '' stays "" (the driver gives no array, or an empty one).
     */
    static @Nullable String text(ResultSet row, int column) throws SQLException {
        byte[] utf8 = row.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }
}
