// The Session page: one conversation in order, each role set apart; Markdown rendered from the
// server's sanitized HTML; tool calls with their arguments and the matching results, reasoning, and
// rewound or compacted turns folded away (a toggle shows them); tokens, cost, lineage and export.
// Long sessions render in chunks so the first messages show at once and the page stays responsive.

import {api} from './api.js';
import {epochSeconds, formatCost, formatInteger, h, replace, setSanitizedHtml, timeElement} from './dom.js';

/** The first chunk is small so the top of the conversation paints at once; the rest go in large ones. */
const FIRST_CHUNK = 100;
const CHUNK = 600;

export async function renderSession(page, context, id) {
  context.setTitle(id);
  const [session, transcript, lineage, store] = await Promise.all([
    api.session(id, context.signal),
    api.messages(id, {include_inactive: 1, follow: 0}, context.signal),
    api.lineage(id, context.signal),
    api.store(context.signal),
  ]);
  performance.mark('hermes:conversation-loaded');
  context.setTitle(session.title || session.id);
  const view = new Conversation(page, session, transcript.messages || [], context);
  view.store = store;
  view.lineageData = lineage;
  view.renderHeader();
  view.renderLineage();
  await view.renderAll();
  view.jumpToHash();
  window.addEventListener('hashchange', () => view.jumpToHash(), {signal: context.signal});
  context.every(5000, () => view.refresh().catch(() => {}));
}

class Conversation {
  constructor(page, session, messages, context) {
    this.page = page;
    this.session = session;
    this.messages = messages;
    this.context = context;
    this.resultSlots = new Map(); // tool_call_id -> the element the call's result goes into
    this.lastId = 0;
    this.header = h('header', {class: 'session-head'});
    this.lineage = h('section', {class: 'lineage', id: 'lineage', 'aria-label': 'Lineage'});
    const inactive = messages.filter(isInactive).length;
    this.toggle = h('input', {type: 'checkbox', id: 'show-inactive'});
    this.toggleCount = h('span', {class: 'count', id: 'inactive-count'}, String(inactive));
    this.toggleLabel = h('label', {for: 'show-inactive', class: 'toggle'}, this.toggle,
      ' Show rewound and compacted turns (', this.toggleCount, ')');
    this.toggle.addEventListener('change', () => this.showInactive(this.toggle.checked));
    this.list = h('ol', {class: 'conversation', id: 'conversation', 'aria-label': 'Conversation',
      'data-rendered': 'no', 'data-show-inactive': 'no'});
    page.append(this.header, this.lineage, h('div', {class: 'conversation-tools'}, this.toggleLabel), this.list);
  }

  /**
   * Live as the Sessions page says it: not ended, and its last message (or its start) within the
   * server's live window of the server's clock.
   */
  isLive() {
    const s = this.session;
    if (s.ended_at !== null && s.ended_at !== undefined) return false;
    if (!this.store || this.store.server_time === undefined) return Boolean(s.is_active);
    let last = epochSeconds(s.started_at) || 0;
    for (const message of this.messages) last = Math.max(last, epochSeconds(message.timestamp) || 0);
    return this.store.server_time - last < (this.store.live_seconds || 300);
  }

  renderHeader() {
    const s = this.session;
    const live = this.isLive();
    const tokens = [
      ['Input', s.input_tokens], ['Output', s.output_tokens], ['Cache read', s.cache_read_tokens],
      ['Cache write', s.cache_write_tokens], ['Reasoning', s.reasoning_tokens],
    ];
    replace(this.header,
      h('p', {class: 'crumbs'}, h('a', {href: '/sessions'}, '← Sessions')),
      h('h1', {id: 'session-title'}, h('span', {class: 'title-text'}, s.title || s.id),
        live ? h('span', {class: 'badge live', title: 'active in the last 5 minutes'}, 'live') : null,
        s.archived ? h('span', {class: 'badge archived'}, 'archived') : null),
      h('dl', {class: 'facts', id: 'session-facts'},
        fact('Session', h('code', null, s.id)),
        fact('Source', s.source || '–'),
        fact('Model', s.model || '–'),
        fact('Started', timeElement(epochSeconds(s.started_at))),
        fact('Ended', s.ended_at ? timeElement(epochSeconds(s.ended_at)) : (live ? 'running' : '–')),
        s.end_reason ? fact('End reason', s.end_reason) : null,
        fact('Messages', formatInteger(s.message_count), 'messages'),
        fact('Tool calls', formatInteger(s.tool_call_count), 'tool-calls'),
        s.api_call_count !== undefined && s.api_call_count !== null ? fact('API calls', formatInteger(s.api_call_count)) : null,
        s.cwd ? fact('Folder', s.cwd) : null,
        s.git_branch ? fact('Git branch', s.git_branch) : null),
      h('table', {class: 'usage', id: 'session-usage'},
        h('caption', null, 'Tokens and cost'),
        h('tbody', null,
          tokens.map(([label, value]) => h('tr', null, h('th', {scope: 'row'}, label),
            h('td', {class: 'num'}, formatInteger(value ?? 0)))),
          h('tr', null, h('th', {scope: 'row'}, 'Estimated cost'), h('td', {class: 'num', id: 'cost-estimated'}, formatCost(s.estimated_cost_usd))),
          h('tr', null, h('th', {scope: 'row'}, 'Actual cost'), h('td', {class: 'num', id: 'cost-actual'}, formatCost(s.actual_cost_usd))),
          s.cost_status ? h('tr', null, h('th', {scope: 'row'}, 'Cost status'), h('td', null, s.cost_status)) : null)),
      h('p', {class: 'actions'},
        h('a', {href: api.exportPath(s.id), download: `${s.id}.json`, id: 'export-json', class: 'button'},
          'Export as JSON')));
  }

  /**
   * The session's family: the root's whole tree (compression continuations, branches, subagents), each
   * a link, indented by depth, with how it came from its parent; the session itself marked.
   */
  renderLineage() {
    const tree = (this.lineageData && this.lineageData.tree) || [];
    if (tree.length <= 1) {
      this.lineage.hidden = true;
      this.lineage.replaceChildren();
      return;
    }
    this.lineage.hidden = false;
    const labels = {compression: 'continued after compression', branch: 'branch', delegate: 'subagent',
      child: 'child'};
    const items = tree.map((node) => {
      const current = node.id === this.session.id;
      const name = node.title || node.id;
      return h('li', {class: `depth-${Math.min(Number(node.depth) || 0, 8)}` + (current ? ' current' : ''),
        'data-relation': node.relation || 'root', 'data-session-id': node.id},
      current ? h('span', {'aria-current': 'page'}, name)
        : h('a', {href: `/sessions/${encodeURIComponent(node.id)}`}, name),
      h('span', {class: 'relation'}, node.relation ? labels[node.relation] || node.relation : 'root'),
      node.title ? h('span', {class: 'session-id'}, node.id) : null,
      h('span', {class: 'meta'}, `${formatInteger(node.message_count)} messages`));
    });
    const tip = this.lineageData.compression_tip;
    replace(this.lineage, h('h2', null, 'Lineage'),
      tip && tip !== this.session.id
        ? h('p', {class: 'tip'}, 'This conversation continues in ',
          h('a', {href: `/sessions/${encodeURIComponent(tip)}`, id: 'compression-tip'}, tip), '.')
        : null,
      h('ul', {class: 'lineage-tree', id: 'lineage-tree'}, items));
  }

  /** Renders every message, a chunk per frame after the first; resolves when the last one is in. */
  async renderAll() {
    const callIds = new Set();
    for (const message of this.messages) {
      for (const call of toolCalls(message)) {
        if (call.id) callIds.add(call.id);
      }
    }
    this.callIds = callIds;
    for (let start = 0; start < this.messages.length;) {
      const end = start + (start === 0 ? FIRST_CHUNK : CHUNK);
      const fragment = document.createDocumentFragment();
      for (const message of this.messages.slice(start, end)) {
        this.renderMessage(message, fragment);
      }
      this.list.appendChild(fragment);
      start = end;
      if (start < this.messages.length) {
        await nextFrame();
        if (this.context.signal.aborted) return;
      }
    }
    if (this.messages.length === 0) {
      this.list.appendChild(h('li', {class: 'empty'}, 'This session has no messages.'));
    }
    this.list.dataset.rendered = 'all';
    this.list.dataset.count = String(this.list.querySelectorAll('.message').length);
    performance.mark('hermes:conversation-rendered');
  }

  renderMessage(message, target) {
    this.lastId = Math.max(this.lastId, Number(message.id) || 0);
    if (message.role === 'tool' && message.tool_call_id && this.resultSlots.has(message.tool_call_id)) {
      const slot = this.resultSlots.get(message.tool_call_id);
      replace(slot, toolResult(message));
      slot.closest('.tool-call').classList.add('answered');
      return;
    }
    if (message.role === 'tool' && message.tool_call_id && this.callIds.has(message.tool_call_id)) {
      // a result stored before its call (timestamps out of order): shown where the call is, once it comes
      this.pendingResults = this.pendingResults || new Map();
      this.pendingResults.set(message.tool_call_id, message);
      return;
    }
    const inactive = isInactive(message);
    const article = h('li', {
      class: `message role-${cssToken(message.role)}` + (inactive ? ' inactive' : ''),
      id: `message-${message.id}`,
      'data-message-id': message.id,
      'data-role': message.role,
      hidden: inactive && !this.toggle.checked,
    });
    article.appendChild(h('div', {class: 'message-head'},
      h('span', {class: 'role'}, roleLabel(message)),
      message.tool_name && message.role === 'tool' ? h('span', {class: 'tool-name'}, message.tool_name) : null,
      inactive ? h('span', {class: 'badge inactive-mark'}, message.compacted ? 'compacted' : 'rewound') : null,
      message.observed ? h('span', {class: 'badge'}, 'observed') : null,
      h('a', {href: `#message-${message.id}`, class: 'permalink', title: 'Link to this message'},
        timeElement(epochSeconds(message.timestamp)))));
    const reasoning = message.reasoning || message.reasoning_content;
    if (reasoning) {
      article.appendChild(h('details', {class: 'reasoning'}, h('summary', null, 'Reasoning'),
        h('pre', {class: 'text'}, reasoning)));
    }
    const body = messageBody(message);
    if (body) article.appendChild(body);
    for (const call of toolCalls(message)) {
      const slot = h('div', {class: 'tool-result pending'}, 'no result stored');
      const name = (call.function && call.function.name) || call.name || 'tool';
      article.appendChild(h('details', {class: 'tool-call', 'data-tool-call-id': call.id || ''},
        h('summary', null, h('span', {class: 'tool-label'}, 'Tool call '), h('code', null, name)),
        h('div', {class: 'tool-arguments'}, h('div', {class: 'label'}, 'Arguments'),
          h('pre', {class: 'json'}, prettyJson(call.function ? call.function.arguments : call.arguments))),
        slot));
      if (call.id) {
        this.resultSlots.set(call.id, slot);
        const early = this.pendingResults && this.pendingResults.get(call.id);
        if (early) {
          this.pendingResults.delete(call.id);
          replace(slot, toolResult(early));
          slot.closest('.tool-call').classList.add('answered');
        }
      }
    }
    target.appendChild(article);
  }

  showInactive(show) {
    this.toggle.checked = show;
    this.list.dataset.showInactive = show ? 'yes' : 'no';
    for (const element of this.list.querySelectorAll('.message.inactive')) {
      element.hidden = !show;
    }
  }

  /** Scrolls to #message-<id>: opens the turns toggle or the tool call it sits in when needed. */
  jumpToHash() {
    const match = /^#message-(\d+)$/.exec(location.hash);
    if (!match) return;
    const element = document.getElementById(`message-${match[1]}`);
    if (!element) return;
    if (element.closest('.message.inactive')) this.showInactive(true);
    const details = element.closest('details');
    if (details) details.open = true;
    for (const previous of this.list.querySelectorAll('.target')) previous.classList.remove('target');
    element.classList.add('target');
    element.scrollIntoView({block: 'center'});
    element.dataset.scrolledTo = 'yes';
  }

  /**
   * Live: rows newer than the last one shown are fetched (after_id) and appended, the counters
   * refreshed. A rewind, a restore or a compaction changes rows already shown (the session's counters
   * say so): then the whole conversation is fetched and drawn again.
   */
  async refresh() {
    const signal = this.context.signal;
    const id = this.session.id;
    const [session, transcript, lineage, store] = await Promise.all([
      api.session(id, signal),
      api.messages(id, {include_inactive: 1, follow: 0, after_id: this.lastId}, signal),
      api.lineage(id, signal),
      api.store(signal),
    ]);
    const liveBefore = this.isLive();
    const sessionChanged = JSON.stringify(session) !== JSON.stringify(this.session);
    const lineageChanged = JSON.stringify(lineage) !== JSON.stringify(this.lineageData);
    const known = new Set(this.messages.map((message) => message.id));
    const fresh = (transcript.messages || []).filter((message) => !known.has(message.id) && message.id > this.lastId);
    const before = this.session;
    const redraw = (session.rewind_count ?? 0) !== (before.rewind_count ?? 0)
      || (session.message_count ?? 0) < (before.message_count ?? 0)
      || ((session.message_count ?? 0) !== (before.message_count ?? 0) && fresh.length === 0);
    this.session = session;
    this.store = store;
    this.lineageData = lineage;
    if (redraw) {
      const all = await api.messages(id, {include_inactive: 1, follow: 0}, signal);
      this.messages = all.messages || [];
      this.resultSlots.clear();
      this.pendingResults = null;
      this.lastId = 0;
      this.list.replaceChildren();
      await this.renderAll();
      this.showInactive(this.toggle.checked);
    } else if (fresh.length) {
      for (const message of fresh) {
        for (const call of toolCalls(message)) if (call.id) this.callIds.add(call.id);
      }
      const fragment = document.createDocumentFragment();
      for (const message of fresh) this.renderMessage(message, fragment);
      this.messages.push(...fresh);
      this.list.querySelector(':scope > .empty')?.remove();
      this.list.appendChild(fragment);
      this.list.dataset.count = String(this.list.querySelectorAll('.message').length);
    }
    if (sessionChanged || fresh.length || redraw || liveBefore !== this.isLive()) this.renderHeader();
    if (lineageChanged) this.renderLineage();
    replace(this.toggleCount, String(this.messages.filter(isInactive).length));
  }
}

function fact(label, value, key) {
  return [h('dt', null, label), h('dd', {'data-fact': key || null}, value)];
}

function isInactive(message) {
  return message.active === false || message.active === 0;
}

function roleLabel(message) {
  switch (message.role) {
    case 'user': return 'User';
    case 'assistant': return 'Assistant';
    case 'system': return 'System';
    case 'tool': return 'Tool result';
    default: return String(message.role);
  }
}

function cssToken(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9_-]/g, '_');
}

/** The message's text: the server's sanitized Markdown when it sent one, the plain text otherwise. */
function messageBody(message) {
  if (typeof message.content_html === 'string' && message.content_html !== '') {
    const body = h('div', {class: 'content markdown'});
    setSanitizedHtml(body, message.content_html);
    return body;
  }
  const text = plainText(message.content);
  if (text === '') return null;
  if (message.role === 'tool') return h('pre', {class: 'content text'}, prettyJson(text));
  return h('div', {class: 'content plain'}, text);
}

/** Text of stored content: a string, or the text parts of multimodal content (pictures named, not shown). */
function plainText(content) {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => {
      if (typeof part === 'string') return part;
      if (part && part.type === 'text') return part.text || '';
      if (part && part.type === 'image_url') return '[picture]';
      return JSON.stringify(part);
    }).join('\n');
  }
  return JSON.stringify(content, null, 2);
}

function toolResult(message) {
  const inactive = isInactive(message);
  return h('div', {class: 'result-body' + (inactive ? ' inactive' : ''), id: `message-${message.id}`,
    'data-message-id': message.id, 'data-role': 'tool'},
    h('div', {class: 'label'}, 'Result', message.tool_name ? ` of ${message.tool_name}` : '', ' ',
      timeElement(epochSeconds(message.timestamp))),
    h('pre', {class: 'json'}, prettyJson(plainText(message.content))));
}

/** The tool calls of an assistant message, whatever form the server sends them in (list or JSON text). */
function toolCalls(message) {
  let calls = message.tool_calls;
  if (typeof calls === 'string') {
    try {
      calls = JSON.parse(calls);
    } catch (error) {
      return [];
    }
  }
  return Array.isArray(calls) ? calls.filter((call) => call && typeof call === 'object') : [];
}

/** JSON (as text or value) indented for reading; anything else as it is. */
function prettyJson(value) {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  const trimmed = value.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return value;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch (error) {
    return value;
  }
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
