package dev.hermes.state.codegen;

import org.jooq.impl.AbstractConverter;
import org.jspecify.annotations.Nullable;

/**
 * Maps the store's 0/1 flags (INTEGER on SQLite, bigint on PostgreSQL: the agent writes integers) to
 * {@link Boolean} and back, so queries and records speak of {@code true} while the file keeps what the
 * agent reads. Any non-zero value reads as true, as it does for the agent's {@code if row["active"]}.
 */
public final class FlagConverter extends AbstractConverter<Long, Boolean> {
    public FlagConverter() {
        super(Long.class, Boolean.class);
    }

    @Override
    public @Nullable Boolean from(@Nullable Long stored) {
        return stored == null ? null : stored != 0;
    }

    @Override
    public @Nullable Long to(@Nullable Boolean flag) {
        return flag == null ? null : flag ? 1L : 0L;
    }
}
