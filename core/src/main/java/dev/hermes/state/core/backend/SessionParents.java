package dev.hermes.state.core.backend;

import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The parent links of a store's sessions and the cycles among them, which both engines' doctor,
 * repair (and SQLite's recover) look for: here, not in maintenance, so that the engines need no package
 * above them.
 */
public final class SessionParents {
    private SessionParents() {
    }

    /** Every session's parent (null for a root), read with plain SQL both engines run. */
    public static Map<String, @Nullable String> read(Connection connection) throws SQLException {
        Map<String, @Nullable String> parents = new HashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, parent_session_id FROM sessions")) {
            while (rows.next()) {
                parents.put(rows.getString(1), rows.getString(2));
            }
        }
        return parents;
    }

    /** The sessions whose parent does not exist, each as {@code "id -> parent"}, sorted. */
    public static List<String> dangling(Map<String, @Nullable String> parents) {
        List<String> dangling = new ArrayList<>();
        parents.forEach((id, parent) -> {
            if (parent != null && !parents.containsKey(parent)) {
                dangling.add(id + " -> " + parent);
            }
        });
        dangling.sort(null);
        return dangling;
    }

    /** Each cycle of parents once, its members sorted, the cycles in order of their first member. */
    public static List<List<String>> cycles(Map<String, @Nullable String> parents) {
        Set<String> settled = new HashSet<>();
        Set<List<String>> cycles = new TreeSet<>((a, b) -> a.get(0).compareTo(b.get(0)));
        for (String start : parents.keySet()) {
            List<String> path = new ArrayList<>();
            Set<String> onPath = new HashSet<>();
            String current = start;
            while (current != null && !settled.contains(current) && parents.containsKey(current)) {
                if (!onPath.add(current)) {
                    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(current), path.size()));
                    cycle.sort(null);
                    cycles.add(cycle);
                    break;
                }
                path.add(current);
                current = parents.get(current);
            }
            settled.addAll(path);
        }
        return List.copyOf(cycles);
    }
}
