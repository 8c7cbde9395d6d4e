// Building the pages' DOM. Every string that comes from the store reaches the page through
// textContent (or a safe attribute), never as markup: the store's content is written by models, tools
// and chat users and must be treated as hostile. The one exception is the server's sanitized Markdown
// (content_html), which goes through setSanitizedHtml below, and even that is filtered again here.

const SAFE_ATTRIBUTES = new Set([
  'id', 'class', 'href', 'title', 'type', 'name', 'value', 'for', 'role', 'colspan', 'rowspan',
  'datetime', 'hidden', 'open', 'download', 'rel', 'scope', 'placeholder', 'min', 'max', 'step',
  'autocomplete', 'tabindex', 'checked', 'selected', 'disabled', 'lang', 'dir',
]);

/**
 * h('a', {href: '/x', class: 'c'}, 'text', child): an element whose attributes are limited to the ones
 * above plus data-* and aria-* (never on*, never style), whose string children become text nodes.
 */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  if (attributes) {
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (!(SAFE_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-'))) {
        throw new Error('attribute not allowed: ' + name);
      }
      if (name === 'href' && !isSafeHref(String(value))) {
        continue;
      }
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) {
      append(element, child);
    } else if (child instanceof Node) {
      element.appendChild(child);
    } else {
      element.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Links the pages build themselves: same-origin paths, fragments, and the API. */
function isSafeHref(href) {
  return href.startsWith('/') && !href.startsWith('//') || href.startsWith('#') || href.startsWith('?');
}

/** Replaces the children of element with the given ones. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

const ALLOWED_TAGS = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'STRONG', 'EM', 'B', 'I', 'CODE', 'PRE', 'BLOCKQUOTE',
  'UL', 'OL', 'LI', 'A', 'IMG', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'DEL', 'S', 'SPAN', 'DIV', 'SUP',
  'SUB', 'KBD', 'DL', 'DT', 'DD', 'INPUT',
]);
const ALLOWED_HTML_ATTRIBUTES = {
  A: ['href', 'title'],
  IMG: ['src', 'alt', 'title'],
  CODE: ['class'],
  OL: ['start'],
  TH: ['align'],
  TD: ['align'],
  INPUT: ['type', 'checked', 'disabled'],
};

/**
 * Puts the server's sanitized Markdown HTML into element. The server already escapes raw HTML and
 * drops unsafe links; this filters the result once more with an allow-list (tags, attributes, link
 * schemes), so that a mistake on one side alone cannot run a script. The HTML is parsed in an inert
 * <template> (no script runs, no image loads while it is parsed).
 */
export function setSanitizedHtml(element, html) {
  const template = document.createElement('template');
  template.innerHTML = String(html);
  cleanTree(template.content);
  element.replaceChildren(template.content);
}

function cleanTree(root) {
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE || !ALLOWED_TAGS.has(node.tagName)) {
      if (node.nodeType === Node.ELEMENT_NODE && !['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED',
        'SVG', 'MATH', 'NOSCRIPT', 'TEXTAREA', 'TITLE', 'svg', 'math'].includes(node.tagName)) {
        // an unknown wrapper: keep its text, as text
        node.replaceWith(document.createTextNode(node.textContent));
      } else {
        node.remove();
      }
      continue;
    }
    const allowed = ALLOWED_HTML_ATTRIBUTES[node.tagName] || [];
    for (const attribute of Array.from(node.attributes)) {
      const name = attribute.name.toLowerCase();
      if (!allowed.includes(name)) {
        node.removeAttribute(attribute.name);
      } else if ((name === 'href' || name === 'src') && !isSafeUrl(attribute.value, name)) {
        node.removeAttribute(attribute.name);
      } else if (name === 'type' && attribute.value !== 'checkbox') {
        node.removeAttribute(attribute.name);
      }
    }
    if (node.tagName === 'INPUT' && node.getAttribute('type') !== 'checkbox') {
      node.remove();
      continue;
    }
    if (node.tagName === 'INPUT') node.setAttribute('disabled', '');
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('rel', 'noopener noreferrer nofollow');
      node.setAttribute('target', '_blank');
    }
    if (node.tagName === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
    }
    cleanTree(node);
  }
}

function isSafeUrl(value, name) {
  const url = value.trim();
  if (name === 'src') {
    // the Content-Security-Policy allows images from this server and data: only
    return /^data:image\/(png|gif|jpeg|webp);/i.test(url) || (url.startsWith('/') && !url.startsWith('//'));
  }
  return /^(https?:|mailto:)/i.test(url) || (url.startsWith('/') && !url.startsWith('//')) || url.startsWith('#');
}

const integer = new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});

/** 12,345 (a missing value is an en dash). */
export function formatInteger(value) {
  return value === null || value === undefined ? '–' : integer.format(value);
}

/** $0.6490 (four decimals below one dollar, two above; a missing value is an en dash). */
export function formatCost(value) {
  if (value === null || value === undefined) return '–';
  const number = Number(value);
  return '$' + number.toFixed(Math.abs(number) < 1 ? 4 : 2);
}

/** 12.3 % (a missing value is an en dash). */
export function formatPercent(value) {
  return value === null || value === undefined ? '–' : Number(value).toFixed(1) + ' %';
}

/** An epoch-seconds time as "2026-03-10 09:00" in the browser's time zone (ISO-like, sortable). */
export function formatTime(epochSeconds) {
  if (epochSeconds === null || epochSeconds === undefined) return '–';
  const date = new Date(Number(epochSeconds) * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} `
    + `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A <time> element for an epoch-seconds time, its full ISO instant as the tooltip. */
export function timeElement(epochSeconds) {
  if (epochSeconds === null || epochSeconds === undefined) return document.createTextNode('–');
  const iso = new Date(Number(epochSeconds) * 1000).toISOString();
  return h('time', {datetime: iso, title: iso}, formatTime(epochSeconds));
}

/** Epoch seconds of a session time field, whatever form the server gives it in (number or ISO text). */
export function epochSeconds(value) {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed / 1000;
}
