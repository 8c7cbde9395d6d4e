// The Sessions page: the store's sessions newest first, filtered, sorted and paged by keyset, with a
// search box over the whole store (not the page) and a "live" mark for sessions active right now.

import {api} from './api.js';
import {epochSeconds, formatCost, formatInteger, h, replace, timeElement} from './dom.js';

const PAGE_SIZE = 20;
const FILTERS = ['source', 'model', 'from', 'to', 'archived', 'kind', 'order', 'limit'];

export async function renderSessions(page, context) {
  context.setTitle('Sessions');
  const params = context.params;
  const q = (params.get('q') || '').trim();

  const form = filterForm(params, context);
  const searchForm = searchBox(q, context);
  const summary = h('p', {class: 'summary', 'aria-live': 'polite', id: 'sessions-summary'});
  const body = h('div', {class: 'sessions-body'});
  page.append(h('header', {class: 'page-head'}, h('h1', null, 'Sessions'), searchForm), form, summary, body);

  loadFacets(form, params, context.signal);
  if (q) {
    await showSearch(q, summary, body, context);
    return;
  }
  const load = async (quiet) => {
    const query = apiQuery(params);
    const result = await api.sessions(query, context.signal);
    const fingerprint = JSON.stringify(result);
    if (quiet && fingerprint === body.dataset.fingerprint) return;
    body.dataset.fingerprint = fingerprint;
    showPage(result, summary, body, context);
  };
  await load(false);
  // live: what the agent writes appears without a reload (one short read per tick, no lock kept)
  context.every(5000, () => load(true).catch(() => {}));
}

/** The page's filters as the API's query parameters. */
function apiQuery(params) {
  const query = {
    limit: params.get('limit') || PAGE_SIZE,
    source: params.get('source'),
    model: params.get('model'),
    archived: params.get('archived') || 'exclude',
    kind: params.get('kind'),
    order: params.get('order') || 'created',
    cursor: params.get('cursor'),
    offset: params.get('offset'),
    // UTC days, both inclusive (the server reads a date as its start, `to` as the end of that day)
    from: params.get('from'),
    to: params.get('to'),
  };
  return query;
}

function filterForm(params, context) {
  const select = (name, label, options) => {
    const element = h('select', {id: `filter-${name}`, name},
      options.map(([value, text]) => h('option', {value, selected: (params.get(name) || '') === value}, text)));
    return h('label', {for: `filter-${name}`}, h('span', null, label), element);
  };
  const form = h('form', {class: 'filters', id: 'filters', 'aria-label': 'Filters'},
    select('source', 'Source', [['', 'All sources']]),
    select('model', 'Model', [['', 'All models']]),
    h('label', {for: 'filter-from'}, h('span', null, 'Started from'),
      h('input', {type: 'date', id: 'filter-from', name: 'from', value: params.get('from') || ''})),
    h('label', {for: 'filter-to'}, h('span', null, 'to'),
      h('input', {type: 'date', id: 'filter-to', name: 'to', value: params.get('to') || ''})),
    select('archived', 'Archived', [['', 'Hide archived'], ['include', 'Include archived'], ['only', 'Archived only']]),
    select('kind', 'Kind', [['', 'Chats and automation'], ['chats', 'Chats'], ['automation', 'Automation']]),
    select('order', 'Sort', [['', 'Newest started'], ['recent', 'Most recently active']]),
    h('button', {type: 'submit'}, 'Apply'),
    h('a', {href: '/sessions', class: 'reset'}, 'Reset'));
  form.addEventListener('change', () => form.requestSubmit());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const field = form.elements.namedItem(name);
      const value = field ? field.value : params.get(name);
      if (value) next.set(name, value);
    }
    context.navigate('/sessions' + (next.toString() ? '?' + next : ''));
  });
  return form;
}

async function loadFacets(form, params, signal) {
  let sources = [];
  let models = [];
  try {
    const stats = await api.stats(signal);
    sources = Object.keys(stats.by_source || {});
    models = Object.keys(stats.by_model || {});
  } catch (ignored) {
    // the drop-downs keep "All"
  }
  fill(form.elements.namedItem('source'), [...sources].sort(), params.get('source'));
  fill(form.elements.namedItem('model'), [...models].sort(), params.get('model'));
}

function fill(select, values, chosen) {
  const names = values.map((value) => (typeof value === 'string' ? value : value.name || value.key || value.value))
    .filter((value) => value !== null && value !== undefined);
  if (chosen && !names.includes(chosen)) names.push(chosen);
  for (const name of names) {
    select.appendChild(h('option', {value: name, selected: name === chosen}, name));
  }
}

function searchBox(q, context) {
  const input = h('input', {type: 'search', id: 'session-search', name: 'q', value: q,
    placeholder: 'Search every session…', autocomplete: 'off'});
  const form = h('form', {class: 'search-box', role: 'search'},
    h('label', {for: 'session-search', class: 'visually-hidden'}, 'Search sessions'), input,
    h('button', {type: 'submit'}, 'Search'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    context.navigate(value ? '/sessions?q=' + encodeURIComponent(value) : '/sessions');
  });
  return form;
}

function showPage(result, summary, body, context) {
  const sessions = result.sessions || [];
  const total = result.total;
  replace(summary, total === undefined || total === null
    ? `${sessions.length} sessions on this page`
    : `${formatInteger(total)} sessions`);
  if (sessions.length === 0) {
    replace(body, h('p', {class: 'empty'}, 'No sessions match these filters.'));
    return;
  }
  replace(body, sessionTable(sessions), pager(result, context));
}

function sessionTable(sessions) {
  const head = h('thead', null, h('tr', null,
    ['Title', 'Source', 'Model', 'Messages', 'Tool calls', 'Tokens', 'Cost', 'Started', 'Last active']
      .map((label) => h('th', {scope: 'col'}, label))));
  const rows = h('tbody', null, sessions.map(sessionRow));
  return h('table', {class: 'sessions', id: 'sessions-table'}, head, rows);
}

function sessionRow(session) {
  const title = session.title || session.preview || session.id;
  const tokens = (session.input_tokens || 0) + (session.output_tokens || 0);
  const tokenDetail = `input ${formatInteger(session.input_tokens)}, output ${formatInteger(session.output_tokens)}`
    + (session.cache_read_tokens ? `, cache read ${formatInteger(session.cache_read_tokens)}` : '');
  const actual = session.actual_cost_usd;
  const estimated = session.estimated_cost_usd;
  const cost = actual !== null && actual !== undefined
    ? h('span', {title: 'actual cost'}, formatCost(actual))
    : estimated !== null && estimated !== undefined
      ? h('span', {title: 'estimated cost', class: 'estimated'}, formatCost(estimated))
      : '–';
  return h('tr', {'data-session-id': session.id, class: session.is_active ? 'live' : null},
    h('td', {class: 'title'},
      h('a', {href: `/sessions/${encodeURIComponent(session.id)}`, class: session.title ? null : 'untitled'}, title),
      session.is_active ? h('span', {class: 'badge live', title: 'active in the last 5 minutes'}, 'live') : null,
      session.archived ? h('span', {class: 'badge archived'}, 'archived') : null,
      h('div', {class: 'session-id'}, session.id)),
    h('td', {class: 'source'}, session.source || '–'),
    h('td', {class: 'model'}, session.model || '–'),
    h('td', {class: 'num messages'}, formatInteger(session.message_count)),
    h('td', {class: 'num tool-calls'}, formatInteger(session.tool_call_count)),
    h('td', {class: 'num tokens', title: tokenDetail}, formatInteger(tokens)),
    h('td', {class: 'num cost'}, cost),
    h('td', {class: 'started'}, timeElement(epochSeconds(session.started_at))),
    h('td', {class: 'last-active'}, timeElement(epochSeconds(session.last_active))));
}

/**
 * Previous / next. Keyset paging when the server gives cursors (the cursors already visited are kept in
 * the history entry, so "previous" works without the server's help); offsets otherwise.
 */
function pager(result, context) {
  const params = context.params;
  const state = context.state || {};
  const visited = Array.isArray(state.cursors) ? state.cursors : [];
  const keyset = 'next_cursor' in result || 'prev_cursor' in result;
  let previous = null;
  let next = null;
  let previousState = null;
  let nextState = null;
  if (keyset) {
    const here = params.get('cursor');
    if (result.next_cursor) {
      next = withParam(params, 'cursor', result.next_cursor);
      nextState = {cursors: [...visited, here || '']};
    }
    if (result.prev_cursor !== undefined && result.prev_cursor !== null) {
      previous = withParam(params, 'cursor', result.prev_cursor);
      previousState = {cursors: visited.slice(0, -1)};
    } else if (here) {
      const back = visited.length ? visited[visited.length - 1] : '';
      previous = withParam(params, 'cursor', back);
      previousState = {cursors: visited.slice(0, -1)};
    }
  } else {
    const offset = Number(params.get('offset') || 0);
    const limit = Number(result.limit || params.get('limit') || PAGE_SIZE);
    if (offset > 0) previous = withParam(params, 'offset', Math.max(0, offset - limit));
    if (result.total !== undefined && offset + limit < result.total) next = withParam(params, 'offset', offset + limit);
  }
  const button = (label, url, pagerState, id) => {
    const element = h('button', {type: 'button', id, disabled: !url}, label);
    if (url) element.addEventListener('click', () => context.navigate(url, {state: pagerState}));
    return element;
  };
  return h('nav', {class: 'pager', 'aria-label': 'Pages'},
    button('← Previous', previous, previousState, 'page-prev'),
    button('Next →', next, nextState, 'page-next'));
}

function withParam(params, name, value) {
  const next = new URLSearchParams(params);
  if (value === '' || value === null || value === 0) {
    next.delete(name);
  } else {
    next.set(name, value);
  }
  const query = next.toString();
  return '/sessions' + (query ? '?' + query : '');
}

async function showSearch(q, summary, body, context) {
  const result = await api.searchSessions({q, limit: 50}, context.signal);
  const hits = result.results || [];
  replace(summary, `${hits.length} sessions match `, h('q', null, q), ' · ',
    h('a', {href: '/search?q=' + encodeURIComponent(q), id: 'search-messages-link'}, 'search every message'));
  if (hits.length === 0) {
    replace(body, h('p', {class: 'empty'}, 'No session matches.'));
    return;
  }
  const { renderSnippet } = await import('./search.js');
  replace(body, h('ul', {class: 'hits session-hits', id: 'session-hits'}, hits.map((hit) => {
    const target = `/sessions/${encodeURIComponent(hit.session_id)}`
      + (hit.message_id ? `#message-${hit.message_id}` : '');
    return h('li', {class: 'hit', 'data-session-id': hit.session_id},
      h('a', {href: target, class: 'hit-title'}, hit.title || hit.session_id),
      h('span', {class: 'meta'}, [hit.source, hit.model, hit.role].filter(Boolean).join(' · ')),
      h('p', {class: 'snippet'}, renderSnippet(hit.snippet || '')));
  })));
}
