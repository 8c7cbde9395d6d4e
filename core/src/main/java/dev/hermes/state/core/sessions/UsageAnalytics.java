package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.StoreStats;
import dev.hermes.state.core.model.UsageQuery;
import dev.hermes.state.core.model.UsageReport;
import dev.hermes.state.core.model.UsageReport.Usage;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.codegen.EpochSecondsConverter;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectField;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The usage report and the store statistics: each figure a SQL aggregate over {@code sessions}, one
 * grouped statement per breakdown, so a store of any size answers in one pass per breakdown. The day of
 * a session is the UTC day of its start, computed in SQL as whole days since the epoch (portable
 * arithmetic; no engine's date functions).
 */
public final class UsageAnalytics {
    private static final Field<Double> STARTED = EpochSeconds.column(SESSIONS.STARTED_AT);
    private static final Field<Long> DAY = DSL.floor(STARTED.div(DSL.inline(86_400.0))).cast(SQLDataType.BIGINT).as("day");
    private static final EpochSecondsConverter SECONDS = new EpochSecondsConverter();

    private final SessionKinds kinds;

    public UsageAnalytics(SessionKinds kinds) {
        this.kinds = kinds;
    }

    public UsageReport usage(Transaction transaction, UsageQuery query) {
        StoreSchema schema = transaction.schema();
        DSLContext dsl = transaction.dsl();
        Condition period = STARTED.gt(DSL.val(SECONDS.to(query.since())));
        List<SelectField<?>> sums = sums(schema);

        List<UsageReport.Daily> daily = new ArrayList<>();
        for (Record row : dsl.select(withKeys(sums, DAY)).from(SESSIONS).where(period)
                .groupBy(DSL.field(DSL.name("day"))).orderBy(DSL.field(DSL.name("day"))).fetch()) {
            daily.add(new UsageReport.Daily(day(row), usage(row)));
        }
        List<UsageReport.DailySource> dailyBySource = new ArrayList<>();
        for (Record row : dsl.select(withKeys(sums, DAY, SESSIONS.SOURCE)).from(SESSIONS).where(period)
                .groupBy(DSL.field(DSL.name("day")), SESSIONS.SOURCE)
                .orderBy(DSL.field(DSL.name("day")), SESSIONS.SOURCE).fetch()) {
            dailyBySource.add(new UsageReport.DailySource(day(row), row.get(SESSIONS.SOURCE), usage(row)));
        }
        Field<Long> tokens = DSL.coalesce(DSL.sum(SESSIONS.INPUT_TOKENS), DSL.inline(BigDecimal.ZERO))
                .plus(DSL.coalesce(DSL.sum(SESSIONS.OUTPUT_TOKENS), DSL.inline(BigDecimal.ZERO))).cast(SQLDataType.BIGINT);
        List<UsageReport.Group> byModel = new ArrayList<>();
        for (Record row : dsl.select(withKeys(sums, SESSIONS.MODEL)).from(SESSIONS)
                .where(period.and(SESSIONS.MODEL.isNotNull()))
                .groupBy(SESSIONS.MODEL).orderBy(tokens.desc(), SESSIONS.MODEL).fetch()) {
            byModel.add(new UsageReport.Group(row.get(SESSIONS.MODEL), usage(row)));
        }
        List<UsageReport.Group> bySource = new ArrayList<>();
        for (Record row : dsl.select(withKeys(sums, SESSIONS.SOURCE)).from(SESSIONS).where(period)
                .groupBy(SESSIONS.SOURCE).orderBy(DSL.count().desc(), SESSIONS.SOURCE).fetch()) {
            bySource.add(new UsageReport.Group(row.get(SESSIONS.SOURCE), usage(row)));
        }
        Record total = dsl.select(sums).from(SESSIONS).where(period).fetchOne();
        return new UsageReport(daily, dailyBySource, byModel, bySource, usage(total));
    }

    /**
     * hermes sessions stats: counts with and without the archive, all messages, and the listed
     * sessions (roots and branches, archived included) per source.
     */
    public StoreStats stats(Transaction transaction) {
        StoreSchema schema = transaction.schema();
        DSLContext dsl = transaction.dsl();
        Condition archived = schema.has(SESSIONS.ARCHIVED)
                ? DSL.condition("{0} <> 0", SESSIONS.ARCHIVED) : DSL.falseCondition();
        Field<Integer> all = DSL.count().as("total");
        Field<Integer> inArchive = DSL.count().filterWhere(archived).as("archived");
        Record counts = dsl.select(all, inArchive).from(SESSIONS).fetchOne();
        long total = counts == null ? 0 : counts.get(all);
        long archivedCount = counts == null ? 0 : counts.get(inArchive);
        long messages = dsl.fetchCount(dev.hermes.state.db.Tables.MESSAGES);
        Field<Integer> n = DSL.count().as("n");
        Map<String, Long> bySource = new LinkedHashMap<>();
        dsl.select(SESSIONS.SOURCE, n).from(SESSIONS).where(kinds.isListed(SESSIONS, schema))
                .groupBy(SESSIONS.SOURCE).orderBy(n.desc(), SESSIONS.SOURCE)
                .forEach(row -> bySource.put(row.get(SESSIONS.SOURCE), (long) row.get(n)));
        Map<String, Long> byModel = new LinkedHashMap<>();
        dsl.select(SESSIONS.MODEL, n).from(SESSIONS)
                .where(kinds.isListed(SESSIONS, schema).and(SESSIONS.MODEL.isNotNull()))
                .groupBy(SESSIONS.MODEL).orderBy(n.desc(), SESSIONS.MODEL)
                .forEach(row -> byModel.put(row.get(SESSIONS.MODEL), (long) row.get(n)));
        return new StoreStats(total, total - archivedCount, archivedCount, messages, bySource, byModel);
    }

    private static List<SelectField<?>> withKeys(List<SelectField<?>> sums, SelectField<?>... keys) {
        List<SelectField<?>> fields = new ArrayList<>(List.of(keys));
        fields.addAll(sums);
        return fields;
    }

    private static LocalDate day(Record row) {
        return LocalDate.ofEpochDay(row.get("day", Long.class));
    }

    /** The sums in {@link Usage}'s order; a column the file lacks sums as 0. */
    private static List<SelectField<?>> sums(StoreSchema schema) {
        List<SelectField<?>> fields = new ArrayList<>();
        fields.add(DSL.count().as("sessions"));
        for (TableField<?, Long> column : List.of(SESSIONS.MESSAGE_COUNT, SESSIONS.TOOL_CALL_COUNT,
                SESSIONS.API_CALL_COUNT, SESSIONS.INPUT_TOKENS, SESSIONS.OUTPUT_TOKENS, SESSIONS.CACHE_READ_TOKENS,
                SESSIONS.CACHE_WRITE_TOKENS, SESSIONS.REASONING_TOKENS)) {
            fields.add((schema.has(column) ? DSL.coalesce(DSL.sum(column), DSL.inline(BigDecimal.ZERO))
                    : DSL.inline(BigDecimal.ZERO)).cast(SQLDataType.BIGINT).as(column.getName()));
        }
        for (TableField<?, Double> column : List.of(SESSIONS.ESTIMATED_COST_USD, SESSIONS.ACTUAL_COST_USD)) {
            fields.add((schema.has(column) ? DSL.coalesce(DSL.sum(column), DSL.inline(0.0))
                    : DSL.inline(0.0)).cast(SQLDataType.DOUBLE).as(column.getName()));
        }
        return fields;
    }

    private static Usage usage(Record row) {
        return new Usage(row.get("sessions", Long.class), row.get("message_count", Long.class),
                row.get("tool_call_count", Long.class), row.get("api_call_count", Long.class),
                row.get("input_tokens", Long.class), row.get("output_tokens", Long.class),
                row.get("cache_read_tokens", Long.class), row.get("cache_write_tokens", Long.class),
                row.get("reasoning_tokens", Long.class), row.get("estimated_cost_usd", Double.class),
                row.get("actual_cost_usd", Double.class));
    }
}
