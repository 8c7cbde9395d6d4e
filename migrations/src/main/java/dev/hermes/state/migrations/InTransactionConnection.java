package dev.hermes.state.migrations;

import org.jspecify.annotations.Nullable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;

/**
 * Hands Liquibase a connection it cannot commit, roll back, switch to manual commit or close, so that
 * the whole update runs inside the single {@code BEGIN IMMEDIATE} transaction the migrator opened.
 * That makes a migration all-or-nothing, serialises concurrent migrators on SQLite's own write lock,
 * and means Liquibase's lock row can never be left committed by a killed process.
 */
final class InTransactionConnection implements InvocationHandler {
    private final Connection target;

    private InTransactionConnection(Connection target) {
        this.target = target;
    }

    static Connection wrap(Connection target) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new InTransactionConnection(target));
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args) throws Throwable {
        String name = method.getName();
        int parameters = method.getParameterCount();
        boolean endsTransaction = (name.equals("commit") || name.equals("rollback") || name.equals("close")) && parameters == 0;
        boolean switchesMode = name.equals("setAutoCommit") && parameters == 1;
        if (endsTransaction || switchesMode) {
            return null;
        }
        if (name.equals("getAutoCommit") && parameters == 0) {
            return false;
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
