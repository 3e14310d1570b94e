'use strict';
// Small time-series charts for the sample page, drawn as inline SVG: the page loads nothing from
// anywhere but this application. Each chart keeps the points of its time window and redraws itself
// whenever one is added; its time axis spans what it has (at least 30 seconds) up to the whole window.
// Each line carries its values in data-values, which the browser test reads.

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 480;
const HEIGHT = 150;
const PLOT = { left: 46, right: WIDTH - 10, top: 10, bottom: HEIGHT - 22 };
const SHORTEST_SPAN = 30000;

function svg(name, attributes, parent) {
  const element = document.createElementNS(SVG_NS, name);
  Object.entries(attributes).forEach(([key, value]) => element.setAttribute(key, value));
  if (parent) {
    parent.appendChild(element);
  }
  return element;
}

// The smallest of 1, 2, 5 times a power of ten at or above the value, so that axis labels stay round.
function niceMax(value) {
  if (!(value > 0)) {
    return 1;
  }
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((candidate) => value <= candidate);
}

function ago(millis) {
  return millis >= 120000 ? `−${+(millis / 60000).toFixed(1)} min` : `−${Math.round(millis / 1000)} s`;
}

function axisLabel(value) {
  return value >= 10 || Number.isInteger(value) ? Math.round(value).toLocaleString('en') : value.toFixed(1);
}

class TimeSeriesChart {

  // element: where the chart goes; series: [{ name, label, color }]; windowSeconds: how far back it shows.
  constructor(element, series, windowSeconds) {
    this.series = series;
    this.windowMillis = windowSeconds * 1000;
    this.points = [];
    this.svg = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img' }, element);
    this.grid = svg('g', { class: 'grid' }, this.svg);
    this.lines = {};
    series.forEach((s) => {
      this.lines[s.name] = svg('path', { 'data-series': s.name, stroke: s.color, fill: 'none',
        'stroke-width': 2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, this.svg);
    });
    const legend = document.createElement('div');
    legend.className = 'legend';
    series.forEach((s) => {
      const item = document.createElement('span');
      const swatch = document.createElement('i');
      swatch.style.background = s.color;
      item.append(swatch, s.label);
      legend.appendChild(item);
    });
    element.appendChild(legend);
  }

  // values: { seriesName: number, or null for no value at that time }
  add(time, values) {
    this.points.push({ time, values });
    while (this.points.length && this.points[0].time < time - this.windowMillis) {
      this.points.shift();
    }
    this.draw(time);
  }

  values(name) {
    return this.points.map((point) => point.values[name]);
  }

  draw(now) {
    const all = this.points.flatMap((point) => this.series.map((s) => point.values[s.name]))
      .filter((value) => value !== null && value !== undefined && Number.isFinite(value));
    const max = niceMax(Math.max(0, ...all));
    const span = Math.min(this.windowMillis, Math.max(SHORTEST_SPAN, now - this.points[0].time));
    const start = now - span;
    const x = (time) => PLOT.left + (time - start) / span * (PLOT.right - PLOT.left);
    const y = (value) => PLOT.bottom - value / max * (PLOT.bottom - PLOT.top);

    this.grid.replaceChildren();
    [0, max / 2, max].forEach((value) => {
      svg('line', { x1: PLOT.left, x2: PLOT.right, y1: y(value), y2: y(value), stroke: '#e3e6eb' }, this.grid);
      svg('text', { x: PLOT.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, this.grid).textContent = axisLabel(value);
    });
    [[PLOT.left, 'start', ago(span)], [(PLOT.left + PLOT.right) / 2, 'middle', ago(span / 2)],
      [PLOT.right, 'end', 'now']].forEach(([position, anchor, text]) => {
      svg('text', { x: position, y: HEIGHT - 6, 'text-anchor': anchor }, this.grid).textContent = text;
    });

    this.series.forEach((s) => {
      let path = '';
      let drawing = false;
      const values = [];
      this.points.forEach((point, index) => {
        const value = point.values[s.name];
        const known = value !== null && value !== undefined && Number.isFinite(value);
        values.push(known ? +value.toFixed(3) : '');
        if (known) {
          path += `${drawing ? 'L' : 'M'}${x(point.time).toFixed(1)},${y(value).toFixed(1)}`;
          const next = this.points[index + 1];
          if (!drawing && !(next && Number.isFinite(next.values[s.name]))) {
            // A value with none on either side: a dot (a round cap on a line of no length).
            path += 'h0.01';
          }
        }
        drawing = known;
      });
      this.lines[s.name].setAttribute('d', path);
      this.lines[s.name].setAttribute('data-values', values.join(','));
    });
  }

}
