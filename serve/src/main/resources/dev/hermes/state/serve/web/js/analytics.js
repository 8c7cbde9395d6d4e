// The Analytics page: token use and cost over the last 7, 30 or 90 days: totals, cache-hit share,
// estimated and actual cost, daily stacked charts (uPlot, served by this server under /vendor/uplot/),
// and the same figures per model and per source.

import {api} from './api.js';
import {formatCost, formatInteger, formatPercent, h, replace} from './dom.js';

const PERIODS = [7, 30, 90];
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7',
  '#9c755f', '#bab0ac'];

const COMPACT = new Intl.NumberFormat('en-US', {notation: 'compact', maximumFractionDigits: 1});

let uPlotModule = null;

async function loadUPlot() {
  if (!uPlotModule) {
    uPlotModule = (await import('/vendor/uplot/uPlot.esm.js')).default;
  }
  return uPlotModule;
}

export async function renderAnalytics(page, context) {
  context.setTitle('Analytics');
  const asked = Number(context.params.get('days') || 30);
  const days = PERIODS.includes(asked) ? asked : 30;
  const periods = h('div', {class: 'periods', role: 'group', 'aria-label': 'Period'},
    PERIODS.map((n) => {
      const button = h('button', {type: 'button', 'aria-pressed': String(n === days), 'data-days': n,
        id: `period-${n}`}, `${n} days`);
      button.addEventListener('click', () => context.navigate(`/analytics?days=${n}`));
      return button;
    }));
  const content = h('div', {class: 'analytics', id: 'analytics', 'data-days': days, 'data-ready': 'no'});
  page.append(h('header', {class: 'page-head'}, h('h1', null, 'Analytics'), periods), content);
  const [report, uPlot, store] = await Promise.all([api.usage(days, context.signal), loadUPlot(),
    api.store(context.signal)]);
  const charts = [];
  const draw = (data) => {
    charts.forEach((chart) => chart.destroy());
    charts.length = 0;
    show(content, {now: store.server_time, ...data}, days, uPlot, charts);
  };
  draw(report);
  let fingerprint = JSON.stringify(report);
  context.every(10000, async () => {
    const fresh = await api.usage(days, context.signal);
    const next = JSON.stringify(fresh);
    if (next !== fingerprint) {
      fingerprint = next;
      draw(fresh);
    }
  });
  context.signal.addEventListener('abort', () => charts.forEach((chart) => chart.destroy()));
}

function show(content, report, days, uPlot, charts) {
  const totals = report.totals || {};
  const total = (name) => totals[`total_${name}`] ?? totals[name] ?? 0;
  const cacheHit = totals.cache_hit_percent ?? cacheHitPercent(total('input'), total('cache_read'), total('cache_write'));
  const card = (key, label, value) => h('div', {class: 'card', 'data-total': key},
    h('div', {class: 'card-label'}, label), h('div', {class: 'card-value'}, value));
  const cards = h('section', {class: 'cards', id: 'totals', 'aria-label': 'Totals'},
    card('sessions', 'Sessions', formatInteger(total('sessions'))),
    card('messages', 'Messages', formatInteger(total('messages'))),
    card('input', 'Input tokens', formatInteger(total('input'))),
    card('output', 'Output tokens', formatInteger(total('output'))),
    card('cache_read', 'Cache read tokens', formatInteger(total('cache_read'))),
    card('cache_write', 'Cache write tokens', formatInteger(total('cache_write'))),
    card('cache_hit', 'Cache hit', formatPercent(cacheHit)),
    card('estimated_cost', 'Estimated cost', formatCost(total('estimated_cost'))),
    card('actual_cost', 'Actual cost', formatCost(total('actual_cost'))),
    card('api_calls', 'API calls', formatInteger(total('api_calls'))));

  const daily = report.daily || [];
  const dayKeys = periodDays(days, periodEnd(report, daily));
  const bySourceDaily = report.daily_by_source || [];
  const sourcesOfDays = [...new Set(bySourceDaily.map((row) => row.source))];
  const perSource = (metric) => sourcesOfDays.length
    ? sourcesOfDays.map((source) => ({label: source,
      values: valuesByDay(dayKeys, bySourceDaily.filter((row) => row.source === source), metric)}))
    : [{label: metric, values: valuesByDay(dayKeys, daily, metric)}];
  const tokenSeries = [
    {label: 'Input', values: valuesByDay(dayKeys, daily, 'input_tokens')},
    {label: 'Output', values: valuesByDay(dayKeys, daily, 'output_tokens')},
    {label: 'Cache read', values: valuesByDay(dayKeys, daily, 'cache_read_tokens')},
  ];
  const chartBox = (id, title) => h('figure', {class: 'chart', id, 'data-chart': id},
    h('figcaption', null, title), h('div', {class: 'plot'}));
  const sessionsChart = chartBox('chart-sessions', 'Sessions per day, by source');
  const messagesChart = chartBox('chart-messages', 'Messages per day, by source');
  const tokensChart = chartBox('chart-tokens', 'Tokens per day');

  replace(content, cards, h('section', {class: 'charts'}, sessionsChart, messagesChart, tokensChart),
    groupTable('Per model', 'model', 'by-model', report.by_model || []),
    groupTable('Per source', 'source', 'by-source', report.by_source || []));
  const xs = dayKeys.map((day) => Date.parse(day + 'T00:00:00Z') / 1000);
  charts.push(stackedBars(uPlot, sessionsChart, xs, perSource('sessions'), formatInteger));
  charts.push(stackedBars(uPlot, messagesChart, xs, perSource('messages'), formatInteger));
  charts.push(stackedBars(uPlot, tokensChart, xs, tokenSeries, formatInteger));
  content.dataset.ready = 'yes';
}

function cacheHitPercent(input, cacheRead, cacheWrite) {
  const prompt = input + cacheRead + cacheWrite;
  return prompt === 0 ? null : 100 * cacheRead / prompt;
}

/**
 * The last day of the period (UTC midnight, in ms): the server's "now" when it says it (its clock is
 * the one that chose the sessions), else today; never before the report's last day.
 */
function periodEnd(report, daily) {
  const now = report.now !== undefined && report.now !== null ? new Date(Number(report.now) * 1000) : new Date();
  let end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const row of daily) {
    end = Math.max(end, Date.parse(String(row.day).slice(0, 10) + 'T00:00:00Z'));
  }
  return end;
}

/** The UTC days of the period, oldest first, ending on the day end (ms). */
function periodDays(days, end) {
  const keys = [];
  for (let i = days - 1; i >= 0; i--) {
    keys.push(new Date(end - i * 86400000).toISOString().slice(0, 10));
  }
  return keys;
}

function valuesByDay(dayKeys, rows, metric) {
  const byDay = new Map();
  for (const row of rows) {
    const day = String(row.day).slice(0, 10);
    byDay.set(day, (byDay.get(day) || 0) + Number(row[metric] || 0));
  }
  return dayKeys.map((day) => byDay.get(day) || 0);
}

/**
 * Bars stacked bottom to top in the order of series: each series is drawn at its running total, the
 * tallest first, so the shorter ones in front show as the lower segments; the legend shows each
 * series' own value.
 */
function stackedBars(uPlot, box, xs, series, format) {
  const plot = box.querySelector('.plot');
  const running = [];
  let sum = xs.map(() => 0);
  for (const one of series) {
    sum = sum.map((value, i) => value + one.values[i]);
    running.push(sum);
  }
  const order = series.map((_, i) => i).reverse();
  const bars = uPlot.paths.bars({size: [0.8, 48]});
  const options = {
    width: Math.max(320, plot.clientWidth || box.clientWidth || 640),
    height: 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {x: {time: true}, y: {range: (u, min, max) => [0, Math.max(1, max)]}},
    axes: [{}, {values: (u, ticks) => ticks.map((v) => COMPACT.format(v)), size: 56}],
    legend: {live: true},
    series: [{label: 'Day', value: (u, v) => (v === null ? '–' : new Date(v * 1000).toISOString().slice(0, 10))},
      ...order.map((i) => ({
        label: series[i].label,
        fill: PALETTE[i % PALETTE.length],
        stroke: PALETTE[i % PALETTE.length],
        paths: bars,
        points: {show: false},
        value: (u, v, seriesIndex, index) => (index === null ? '–' : format(series[i].values[index])),
      }))],
  };
  const data = [xs, ...order.map((i) => running[i])];
  const chart = new uPlot(options, data, plot);
  box.dataset.series = String(series.length);
  box.dataset.total = String(sum.reduce((a, b) => a + b, 0));
  const observer = new ResizeObserver(() => {
    const width = Math.max(320, plot.clientWidth);
    if (Math.abs(width - chart.width) > 4) chart.setSize({width, height: 220});
  });
  observer.observe(plot);
  return {destroy() { observer.disconnect(); chart.destroy(); }};
}

function groupTable(title, keyName, id, rows) {
  const head = h('thead', null, h('tr', null,
    [keyName === 'model' ? 'Model' : 'Source', 'Sessions', 'Messages', 'Input', 'Output', 'Cache read',
      'Cache hit', 'Estimated cost', 'Actual cost'].map((label) => h('th', {scope: 'col'}, label))));
  const body = h('tbody', null, rows.length === 0
    ? h('tr', null, h('td', {colspan: 9, class: 'empty'}, 'No sessions in this period.'))
    : rows.map((row) => {
      const key = row[keyName] ?? row.key ?? '–';
      const hit = row.cache_hit_percent ?? cacheHitPercent(row.input_tokens || 0, row.cache_read_tokens || 0,
        row.cache_write_tokens || 0);
      return h('tr', {'data-key': key},
        h('th', {scope: 'row'}, key),
        h('td', {class: 'num'}, formatInteger(row.sessions)),
        h('td', {class: 'num'}, formatInteger(row.messages)),
        h('td', {class: 'num'}, formatInteger(row.input_tokens)),
        h('td', {class: 'num'}, formatInteger(row.output_tokens)),
        h('td', {class: 'num'}, formatInteger(row.cache_read_tokens)),
        h('td', {class: 'num'}, formatPercent(hit)),
        h('td', {class: 'num'}, formatCost(row.estimated_cost ?? row.estimated_cost_usd)),
        h('td', {class: 'num'}, formatCost(row.actual_cost ?? row.actual_cost_usd)));
    }));
  return h('section', {class: 'group', 'aria-label': title}, h('h2', null, title),
    h('table', {class: 'groups', id}, head, body));
}
