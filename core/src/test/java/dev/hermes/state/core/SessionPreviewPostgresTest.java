package dev.hermes.state.core;

import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The previews on PostgreSQL, where structured content is stored behind SOH instead of NUL. */
class SessionPreviewPostgresTest extends SessionPreviewContract {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Override
    StateRepository open() {
        return StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build();
    }
}
