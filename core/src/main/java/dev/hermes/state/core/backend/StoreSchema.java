package dev.hermes.state.core.backend;

import dev.hermes.state.core.model.SchemaRules;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.TableField;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static dev.hermes.state.db.Tables.COMPRESSION_LOCKS;
import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS_TRIGRAM;
import static dev.hermes.state.db.Tables.SESSIONS;
import static dev.hermes.state.db.Tables.STATE_META;

/**
 * What the store's database holds of Hermes' schema, and which agent's rules its answers follow. Read
 * once, on the store's first use: a read-write store holds exactly its target version's schema after
 * migrating; a read-only store may be on a file of any version, so every query names only the columns
 * this schema {@link #has} (a missing flag reads as its default: a row without {@code active} is live), and
 * prepared statements are rendered once per {@link #shape}.
 *
 */
public final class StoreSchema {
    /** The first schema version written by an agent whose rules are {@link SchemaRules#V17}'s. */
    private static final int FIRST_V17_VERSION = 7;

    private final int version;
    private final SchemaRules rules;
    private final Set<String> sessionColumns;
    private final Set<String> messageColumns;
    private final Set<String> tables;
    private final String shape;

    /**
     * @param version        the version the database claims ({@code schema_version})
     * @param rules          whose answers the store gives (see {@link SchemaRules})
     * @param sessionColumns the columns of {@code sessions}
     * @param messageColumns the columns of {@code messages}
     * @param tables         the tables
     */
    public StoreSchema(int version, SchemaRules rules, Set<String> sessionColumns, Set<String> messageColumns, Set<String> tables) {
        this.version = version;
        this.rules = rules;
        this.sessionColumns = lower(sessionColumns);
        this.messageColumns = lower(messageColumns);
        this.tables = lower(tables);
        this.shape = computeShape();
    }


    public int version() {
        return version;
    }

    public SchemaRules rules() {
        return rules;
    }

    /** The columns of {@code sessions}, lower case (the generated ones and any other the file has). */
    public Set<String> sessionColumns() {
        return sessionColumns;
    }

    /** The columns of {@code messages}, lower case. */
    public Set<String> messageColumns() {
        return messageColumns;
    }

    /** The tables, lower case. */
    public Set<String> tables() {
        return tables;
    }

    /** The rules for a store opened to {@code targetVersion} on a database at {@code version}. */
    static SchemaRules rulesFor(int targetVersion, int version) {
        return targetVersion >= FIRST_V17_VERSION || version >= FIRST_V17_VERSION ? SchemaRules.V17 : SchemaRules.V6;
    }

    @Override
    public String toString() {
        return "schema version " + version + " (" + rules + " rules): sessions " + sessionColumns + ", messages "
                + messageColumns + ", tables " + tables;
    }

    /** Reads the schema of the database behind {@code transaction}. */
    public static StoreSchema read(Transaction transaction, Backend backend, int targetVersion) throws SQLException {
        Set<String> tables = backend.tables(transaction);
        int version = tables.contains("schema_version") ? (int) backend.schemaVersion(transaction) : 0;
        return new StoreSchema(version, rulesFor(targetVersion, version), backend.columns(transaction, "sessions"),
                backend.columns(transaction, "messages"), tables);
    }

    /** True when following today's agent ({@link SchemaRules#V17}). */
    public boolean v17() {
        return rules.atLeast(SchemaRules.V17);
    }

    /** True when {@code column} (a column of the generated {@code sessions} or {@code messages} table) exists here. */
    public boolean has(TableField<?, ?> column) {
        String table = column.getTable().getName();
        String name = column.getName().toLowerCase(Locale.ROOT);
        if (table.equals(SESSIONS.getName())) {
            return sessionColumns.contains(name);
        }
        if (table.equals(MESSAGES.getName())) {
            return messageColumns.contains(name);
        }
        throw new IllegalArgumentException(column + " is not a column of sessions or messages");
    }

    /** True when the database has {@code table}. */
    public boolean hasTable(Table<?> table) {
        return tables.contains(table.getName().toLowerCase(Locale.ROOT));
    }

    /** The generated columns of {@code sessions} or {@code messages} that exist here, in the table's order. */
    public List<Field<?>> fields(Table<?> table) {
        List<Field<?>> present = new ArrayList<>();
        for (Field<?> field : table.fields()) {
            if (field instanceof TableField<?, ?> column && has(column)) {
                present.add(field);
            }
        }
        return present;
    }

    /**
     * What decides a statement's SQL: the rules and which of the generated columns and tables exist.
     * Stores of one shape share their rendered statements.
     */
    public String shape() {
        return shape;
    }

    private String computeShape() {
        StringBuilder shape = new StringBuilder(rules.name()).append(':');
        for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
            for (Field<?> field : table.fields()) {
                shape.append(has((TableField<?, ?>) field) ? '1' : '0');
            }
        }
        for (Table<?> table : List.of(STATE_META, COMPRESSION_LOCKS, MESSAGES_FTS_TRIGRAM)) {
            shape.append(hasTable(table) ? '1' : '0');
        }
        return shape.toString();
    }

    private static Set<String> lower(Set<String> names) {
        Set<String> lower = new TreeSet<>();
        names.forEach(name -> lower.add(name.toLowerCase(Locale.ROOT)));
        return Set.copyOf(lower);
    }
}
