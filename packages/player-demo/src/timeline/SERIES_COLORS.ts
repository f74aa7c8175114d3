import type { Series } from './timelineRows.js';

/**
 * One colour per timeline series. Each player keeps its colour whatever the edge's scheme:
 * direct red (e2e's, as on the dashboard), the edge player green, on every page.
 */
export const SERIES_COLORS: Record<Series, string> = {
  'produced at the origin': '#7f7f7f',
  'held at the edge (listed → visible)': '#9ecae1',
  'edge prefetch': '#e6ab02',
  'direct player: request → received': '#d62728',
  'edge player: request → received': '#2ca02c',
  'stalls / outage': '#111111',
};
