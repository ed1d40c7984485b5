// Time-series charts with uPlot (canvas, ~50 KB minified), from the org.webjars.npm:uplot WebJar that Portico serves
// under /webjars/ (no CDN). Loaded on the first page that draws a chart, so signing in and the overview do not pay
// for it. Each chart also writes its latest values as text: a canvas says nothing to a screen reader.

import { h, replace } from './dom.js';

const SCRIPT = '/webjars/uplot/dist/uPlot.iife.min.js';
const STYLE = '/webjars/uplot/dist/uPlot.min.css';
const HEIGHT = 180;

/** Okabe-Ito colours: told apart with the common colour-vision deficiencies. */
export const COLORS = {
  blue: '#0072b2', orange: '#e69f00', green: '#009e73', pink: '#cc79a7', red: '#d55e00', sky: '#56b4e9',
  grey: '#8a8a8a',
};
export const STATUS_COLORS = { '1xx': COLORS.grey, '2xx': COLORS.green, '3xx': COLORS.blue, '4xx': COLORS.orange,
  '5xx': COLORS.red };

let loading = null;

function loadUplot() {
  if (!loading) {
    loading = Promise.all([
      new Promise((resolve, reject) => document.head.append(
        h('link', { rel: 'stylesheet', href: STYLE, onload: resolve, onerror: reject }))),
      new Promise((resolve, reject) => document.head.append(
        h('script', { src: SCRIPT, onload: resolve, onerror: reject }))),
    ]).then(() => window.uPlot);
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * A chart in a <figure>: title, a text line of the latest values (the chart's legend), and the plot. series:
 * [{label, color}]; format(value) writes a value in the text line, axis(value) on the y axis (default: format).
 * xRange: [from, to] in epoch seconds for a fixed time axis (default: the data's).
 * Returns {el, ready, update(xs, ...columns)}: columns line up with xs (epoch seconds); null is a gap.
 */
export function timeChart({ title, series, format, axis: axisFormat = format, id, xRange }) {
  const summary = h('p', { class: 'chart-now', id: `${id}-now` });
  const plot = h('div', { class: 'chart-plot', role: 'img', 'aria-label': `${title}: chart of the last minutes`,
    'aria-describedby': `${id}-now` });
  const el = h('figure', { class: 'chart', id, 'data-points': '0' },
    h('figcaption', null, h('h3', null, title), summary), plot);
  let chart = null;
  let pending = null;

  const ready = loadUplot().then(uPlot => {
    const style = getComputedStyle(document.documentElement);
    const ink = style.getPropertyValue('--muted').trim() || '#555';
    const grid = style.getPropertyValue('--grid').trim() || '#e3e3e3';
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    chart = new uPlot({
      width: Math.max(240, plot.clientWidth),
      height: HEIGHT,
      scales: {
        x: xRange ? { time: true, range: () => xRange } : { time: true },
        y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      // Points only where a line has too few of them to show: one minute of traffic is a dot, not nothing.
      series: [{}, ...series.map(s => ({ label: s.label, stroke: s.color, fill: null, width: 1.5,
        points: { show: (u, seriesIndex, i0, i1) => i1 - i0 < 3 } }))],
      axes: [axis, { ...axis, size: 72, values: (u, ticks) => ticks.map(axisFormat) }],
      // The text line above the plot is the legend, readable without a pointer.
      legend: { show: false },
    }, pending || [[], ...series.map(() => [])], plot);
    new ResizeObserver(() => chart.setSize({ width: Math.max(240, plot.clientWidth), height: HEIGHT }))
      .observe(plot);
    return chart;
  }, () => {
    plot.append(h('p', { class: 'error' }, 'The chart library could not be loaded.'));
  });

  return {
    el,
    ready,
    update(xs, ...columns) {
      const data = [xs, ...columns];
      el.setAttribute('data-points', String(xs.length));
      replace(summary, series.map((s, i) => {
        const column = columns[i];
        const last = column.length ? column[column.length - 1] : null;
        return h('span', { class: 'chart-value' }, swatch(s.color), `${s.label} ${format(last)}`);
      }));
      if (chart) {
        chart.setData(data);
      } else {
        pending = data;
      }
    },
  };
}

/**
 * A small colour key. Coloured through the CSS object model: the CSP forbids style attributes, not styles set by a
 * script of the page.
 */
export function swatch(color) {
  const el = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  el.style.backgroundColor = color;
  return el;
}
