// The Search page: the store's own full-text search (FTS5 on SQLite, the search column on PostgreSQL)
// over every message, with the matched words highlighted and filters; a hit opens its session
// scrolled to the message.

import {api} from './api.js';
import {epochSeconds, formatInteger, h, replace, timeElement} from './dom.js';

const OPEN = '>>>';
const CLOSE = '<<<';

/**
 * The store's snippet as nodes: the text between its >>> and <<< markers in <mark>, everything as
 * text nodes (a snippet is stored content: it is never parsed as HTML).
 */
export function renderSnippet(snippet) {
  const fragment = document.createDocumentFragment();
  let rest = String(snippet);
  while (rest.length) {
    const open = rest.indexOf(OPEN);
    if (open < 0) {
      fragment.appendChild(document.createTextNode(rest));
      break;
    }
    if (open > 0) fragment.appendChild(document.createTextNode(rest.slice(0, open)));
    rest = rest.slice(open + OPEN.length);
    const close = rest.indexOf(CLOSE);
    const marked = close < 0 ? rest : rest.slice(0, close);
    fragment.appendChild(h('mark', null, marked));
    rest = close < 0 ? '' : rest.slice(close + CLOSE.length);
  }
  return fragment;
}

const PAGE = 50;

export async function renderSearch(page, context) {
  context.setTitle('Search');
  const params = context.params;
  const q = (params.get('q') || '').trim();
  const field = (name, label, element) => h('label', {for: `search-${name}`}, h('span', null, label), element);
  const select = (name, options) => h('select', {id: `search-${name}`, name},
    options.map(([value, text]) => h('option', {value, selected: (params.get(name) || '') === value}, text)));
  const form = h('form', {class: 'search-form', role: 'search', id: 'search-form'},
    field('q', 'Search for', h('input', {type: 'search', id: 'search-q', name: 'q', value: q,
      placeholder: 'words, "a phrase", prefix*', autocomplete: 'off'})),
    field('source', 'Source', select('source', [['', 'All sources']])),
    field('role', 'Role', select('role', [['', 'All roles'], ['user', 'User'], ['assistant', 'Assistant'],
      ['tool', 'Tool'], ['system', 'System']])),
    field('sort', 'Order', select('sort', [['', 'Best match'], ['newest', 'Newest first'], ['oldest', 'Oldest first']])),
    h('label', {for: 'search-include_inactive', class: 'inline'},
      h('input', {type: 'checkbox', id: 'search-include_inactive', name: 'include_inactive', value: '1',
        checked: params.get('include_inactive') === '1'}),
      h('span', null, 'Include rewound and compacted turns')),
    h('button', {type: 'submit'}, 'Search'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of ['q', 'source', 'role', 'sort']) {
      const value = form.elements.namedItem(name).value.trim();
      if (value) next.set(name, value);
    }
    if (form.elements.namedItem('include_inactive').checked) next.set('include_inactive', '1');
    context.navigate('/search' + (next.toString() ? '?' + next : ''));
  });
  const summary = h('p', {class: 'summary', id: 'search-summary', 'aria-live': 'polite'});
  const results = h('ol', {class: 'hits', id: 'search-hits'});
  const more = h('nav', {class: 'pager', 'aria-label': 'Pages'});
  page.append(h('header', {class: 'page-head'}, h('h1', null, 'Search')), form, summary, results, more);
  fillSources(form.elements.namedItem('source'), params.get('source'), context.signal);
  if (!q) {
    replace(summary, 'Type words to search every message of the store.');
    form.elements.namedItem('q').focus();
    return;
  }
  const offset = Math.max(0, Number(params.get('offset') || 0));
  const result = await api.searchMessages({q, source: params.get('source'), role: params.get('role'),
    sort: params.get('sort'), include_inactive: params.get('include_inactive'), limit: PAGE, offset},
  context.signal);
  const hits = result.results || [];
  replace(summary, hits.length === 0 && offset === 0 ? 'No message matches.'
    : `Matches ${formatInteger(offset + 1)}–${formatInteger(offset + hits.length)}${result.has_more ? '' : ' (all)'}`);
  const fragment = document.createDocumentFragment();
  for (const hit of hits) {
    const sessionId = hit.session_id;
    const messageId = hit.id ?? hit.message_id;
    const target = `/sessions/${encodeURIComponent(sessionId)}` + (messageId ? `#message-${messageId}` : '');
    fragment.appendChild(h('li', {class: 'hit', 'data-session-id': sessionId, 'data-message-id': messageId ?? null},
      h('div', {class: 'hit-head'},
        h('a', {href: target, class: 'hit-title'}, hit.title || sessionId),
        h('span', {class: 'meta'}, [hit.role, hit.tool_name, hit.source, hit.model].filter(Boolean).join(' · ')),
        timeElement(epochSeconds(hit.timestamp ?? hit.session_started))),
      h('p', {class: 'snippet'}, renderSnippet(hit.snippet || ''))));
  }
  results.appendChild(fragment);
  const pageLink = (label, to, id) => {
    const next = new URLSearchParams(params);
    if (to > 0) next.set('offset', String(to)); else next.delete('offset');
    const button = h('button', {type: 'button', id}, label);
    button.addEventListener('click', () => context.navigate('/search?' + next));
    return button;
  };
  replace(more, offset > 0 ? pageLink('← Previous', Math.max(0, offset - PAGE), 'search-prev') : null,
    result.has_more ? pageLink('Next →', offset + PAGE, 'search-next') : null);
}

async function fillSources(select, chosen, signal) {
  try {
    const sources = Object.keys((await api.stats(signal)).by_source || {}).sort();
    if (chosen && !sources.includes(chosen)) sources.push(chosen);
    for (const name of sources) {
      select.appendChild(h('option', {value: name, selected: name === chosen}, name));
    }
  } catch (ignored) {
    // "All sources" only
  }
}
