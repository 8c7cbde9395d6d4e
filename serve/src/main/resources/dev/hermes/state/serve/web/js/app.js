// The pages' router: every page has a real address (/sessions, /sessions/{id}, /search, /analytics),
// links move through the History API without reloading, and each navigation gets a fresh context
// (an AbortSignal for its requests, timers stopped when the page is left).

import {h, replace} from './dom.js';
import {renderSessions} from './sessions.js';
import {renderSession} from './session.js';
import {renderSearch} from './search.js';
import {renderAnalytics} from './analytics.js';

const root = document.getElementById('app');
let current = null;

const routes = [
  {pattern: /^\/(?:sessions\/?)?$/, nav: 'sessions', render: renderSessions},
  {pattern: /^\/sessions\/([^/]+)$/, nav: 'sessions', render: renderSession},
  {pattern: /^\/search\/?$/, nav: 'search', render: renderSearch},
  {pattern: /^\/analytics\/?$/, nav: 'analytics', render: renderAnalytics},
];

/** Goes to url inside the app (pushState, or replaceState with {replace: true}). */
export function navigate(url, options = {}) {
  if (options.replace) {
    history.replaceState(options.state || null, '', url);
  } else {
    history.pushState(options.state || null, '', url);
  }
  route();
}

function route() {
  if (current) {
    current.abort();
  }
  const controller = new AbortController();
  const timers = [];
  const context = {
    signal: controller.signal,
    params: new URLSearchParams(location.search),
    hash: location.hash,
    state: history.state,
    navigate,
    /** Runs task every ms milliseconds while this page is shown and the tab is visible. */
    every(ms, task) {
      const timer = setInterval(() => {
        if (!document.hidden && !controller.signal.aborted) {
          task();
        }
      }, ms);
      timers.push(timer);
    },
    setTitle(title) {
      document.title = title ? `${title} · hermes-state` : 'hermes-state';
    },
  };
  current = {
    abort() {
      controller.abort();
      timers.forEach(clearInterval);
    },
  };
  const path = location.pathname;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(path);
    if (match) {
      markNav(candidate.nav);
      const page = h('div', {class: 'page', 'data-page': candidate.nav});
      replace(root, page);
      // data-ready: the page has everything it asked for on screen (what a test or a reader waits for)
      candidate.render(page, context, ...match.slice(1).map(decodeURIComponent)).then(() => {
        page.dataset.ready = 'yes';
      }, (error) => {
        if (!controller.signal.aborted) {
          showError(page, error);
          page.dataset.ready = 'error';
        }
      });
      return;
    }
  }
  markNav(null);
  context.setTitle('Not found');
  replace(root, h('div', {class: 'page', 'data-page': 'not-found'},
    h('h1', null, 'Not found'),
    h('p', null, 'There is no page at ', h('code', null, path), '. ', h('a', {href: '/sessions'}, 'Sessions'))));
}

/** Shows a failed request or render in place of the page's content. */
export function showError(page, error) {
  const message = error && error.message ? error.message : String(error);
  page.appendChild(h('p', {class: 'error', role: 'alert'}, 'Could not load this page: ', message));
}

function markNav(name) {
  for (const link of document.querySelectorAll('nav.top a[data-nav]')) {
    if (link.dataset.nav === name) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
}

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey
    || event.altKey) {
    return;
  }
  const link = event.target.closest('a[href]');
  if (!link || link.hasAttribute('download') || link.target === '_blank') return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/vendor/')) {
    return;
  }
  if (url.pathname === location.pathname && url.search === location.search && url.hash) {
    return; // a jump inside the page: the browser scrolls
  }
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

window.addEventListener('popstate', route);

if (location.pathname === '/') {
  history.replaceState(null, '', '/sessions' + location.search);
}
route();
