import type { Series } from './timelineRows.js';

/** One colour per timeline series (the direct/edge players keep the dashboard's e2e/edge colours). */
export const SERIES_COLORS: Record<Series, string> = {
  'produced at the origin': '#7f7f7f',
  'held at the edge (listed → visible)': '#ffbb78',
  'edge prefetch': '#9467bd',
  'direct player: request → received': '#d62728',
  'edge player: request → received': '#2ca02c',
  'stalls / outage': '#111111',
};
