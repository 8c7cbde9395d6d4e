// The JSON API of `hermes-state serve` (docs/serve.md): Hermes' dashboard paths and shapes.

/** An answer of the API that is not 2xx: its status and the server's one-line reason. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function getJson(path, params, signal) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== '') query.set(name, String(value));
  }
  const url = query.toString() ? `${path}?${query}` : path;
  const response = await fetch(url, {headers: {Accept: 'application/json'}, signal, cache: 'no-store'});
  if (!response.ok) {
    let reason = response.statusText;
    try {
      const body = await response.json();
      reason = body.detail || body.error || body.message || reason;
    } catch (ignored) {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, `${response.status} ${reason}`);
  }
  return response.json();
}

export const api = {
  sessions: (params, signal) => getJson('/api/sessions', params, signal),
  stats: (signal) => getJson('/api/sessions/stats', {}, signal),
  store: (signal) => getJson('/api/store', {}, signal),
  session: (id, signal) => getJson(`/api/sessions/${encodeURIComponent(id)}`, {}, signal),
  lineage: (id, signal) => getJson(`/api/sessions/${encodeURIComponent(id)}/lineage`, {}, signal),
  messages: (id, params, signal) => getJson(`/api/sessions/${encodeURIComponent(id)}/messages`, params, signal),
  /** Sessions whose id or messages match, one per conversation (the dashboard's search). */
  searchSessions: (params, signal) => getJson('/api/sessions/search', params, signal),
  /** Every matching message (the store's full-text search), with filters and offset paging. */
  searchMessages: (params, signal) => getJson('/api/search', params, signal),
  usage: (days, signal) => getJson('/api/analytics/usage', {days}, signal),
  exportPath: (id) => `/api/sessions/${encodeURIComponent(id)}/export`,
};
