// How numbers, sizes, ratios and times are written on every page.

const DASH = '–';

export function count(n) {
  return n === null || n === undefined ? DASH : Math.round(n).toLocaleString('en');
}

/** A rate or measure with up to `digits` decimals (trailing zeros kept so columns line up). */
export function decimal(n, digits = 1) {
  return n === null || n === undefined || Number.isNaN(n) ? DASH : n.toFixed(digits);
}

export function ms(n) {
  if (n === null || n === undefined) {
    return DASH;
  }
  return n < 10 ? `${n.toFixed(2)} ms` : n < 1000 ? `${n.toFixed(1)} ms` : `${(n / 1000).toFixed(2)} s`;
}

export function percent(ratio) {
  return ratio === null || ratio === undefined ? DASH : `${(ratio * 100).toFixed(1)}%`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function bytes(n) {
  if (n === null || n === undefined) {
    return DASH;
  }
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** An ISO instant as local date and time, to the second. */
export function time(iso) {
  if (!iso) {
    return DASH;
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString('en-GB', { hour12: false });
}

/** How long ago an ISO instant was, roughly: "5 s ago", "3 min ago", "2 h ago", "4 d ago". */
export function ago(iso, now = Date.now()) {
  if (!iso) {
    return DASH;
  }
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) {
    return `${seconds} s ago`;
  }
  if (seconds < 3600) {
    return `${Math.floor(seconds / 60)} min ago`;
  }
  if (seconds < 86400) {
    return `${Math.floor(seconds / 3600)} h ago`;
  }
  return `${Math.floor(seconds / 86400)} d ago`;
}
