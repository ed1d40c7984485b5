// A small SVG line of the last minutes, for tables: cheaper than a chart library per cell, and drawn from points,
// never from markup. Missing values (no traffic, no ratio) break the line instead of drawing a false zero.

import { svg } from './dom.js';

const WIDTH = 120;
const HEIGHT = 28;

/**
 * An <svg> sparkline. label: its accessible name. fixedMax: the top of the scale (1 for ratios), else the largest
 * value shown. Returns {el, update(values)}.
 */
export function sparkline(label, fixedMax) {
  const path = svg('path', { class: 'spark-line', d: '' });
  const el = svg('svg', {
    class: 'spark', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT,
    role: 'img', 'aria-label': label, preserveAspectRatio: 'none', focusable: 'false',
  }, path);
  return {
    el,
    update(values) {
      path.setAttribute('d', line(values, fixedMax));
    },
  };
}

function line(values, fixedMax) {
  const present = values.filter(v => v !== null && v !== undefined);
  if (present.length === 0) {
    return '';
  }
  const max = fixedMax || Math.max(...present) || 1;
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  let d = '';
  let drawing = false;
  values.forEach((v, i) => {
    if (v === null || v === undefined) {
      drawing = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (HEIGHT - 1 - (Math.min(v, max) / max) * (HEIGHT - 2)).toFixed(1);
    d += `${drawing ? 'L' : 'M'}${x} ${y}`;
    drawing = true;
  });
  return d;
}
