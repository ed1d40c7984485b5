// The live charts of one vhost, from the stats stream's last minutes: requests/s by status class, latency and
// upstream latency percentiles, bytes in and out, and what the cache did.

import { h } from '../../dom.js';
import { CACHE_RESULTS, STATUS_CLASSES } from '../../live.js';
import { COLORS, STATUS_COLORS, timeChart } from '../../chart.js';
import * as format from '../../format.js';

const PERCENTILES = [['p50', COLORS.blue], ['p90', COLORS.orange], ['p99', COLORS.red]];
const CACHE_COLORS = [COLORS.green, COLORS.sky, COLORS.blue, COLORS.pink, COLORS.orange, COLORS.grey];
const perSecond = v => v === null || v === undefined ? '–' : `${format.decimal(v, v < 10 ? 1 : 0)}/s`;
// Axis ticks are round numbers already: short labels, so the axis stays narrow.
const msTick = v => v >= 1000 ? `${Number((v / 1000).toFixed(2))} s` : `${Number(v.toFixed(2))} ms`;
const bytesTick = v => `${format.bytes(v).replace('.0 ', ' ')}/s`;

const CHARTS = [
  {
    id: 'chart-status', title: 'Requests/s by status class', format: perSecond,
    series: STATUS_CLASSES.map(c => ({ label: c, color: STATUS_COLORS[c], value: m => m.status[c] })),
  },
  {
    id: 'chart-latency', title: 'Latency (end to end)', format: format.ms, axis: msTick,
    series: PERCENTILES.map(([p, color]) => ({ label: p, color, value: m => m.latency && m.latency[p] })),
  },
  {
    id: 'chart-upstream', title: 'Upstream latency (to the response head)', format: format.ms, axis: msTick,
    series: PERCENTILES.map(([p, color]) => ({ label: p, color,
      value: m => m.upstreamLatency && m.upstreamLatency[p] })),
  },
  {
    id: 'chart-bytes', title: 'Bytes/s in and out', axis: bytesTick,
    format: v => v === null || v === undefined ? '–' : `${format.bytes(v)}/s`,
    series: [
      { label: 'in', color: COLORS.blue, value: m => m.bytesIn },
      { label: 'out', color: COLORS.orange, value: m => m.bytesOut },
    ],
  },
  {
    id: 'chart-cache', title: 'Cache results/s', format: perSecond,
    series: CACHE_RESULTS.map((r, i) => ({ label: r, color: CACHE_COLORS[i], value: m => m.cache[r] })),
  },
];

/** The charts in a grid: {el, update(points)} for the vhost named name. */
export function liveCharts(name) {
  const charts = CHARTS.map(spec => ({ spec, chart: timeChart(spec) }));
  return {
    el: h('div', { class: 'chart-grid' }, charts.map(c => c.chart.el)),
    update(points) {
      const xs = points.map(p => p.t);
      for (const { spec, chart } of charts) {
        chart.update(xs, ...spec.series.map(s => points.map(p => p.vhosts[name] ? s.value(p.vhosts[name]) : null)));
      }
    },
  };
}
