/**
 * Cells (`format/via`) that fail because of the player, not the edge or the origin, with the
 * evidence. A cell listed here is reported as a player limitation in docs/conformance.md.
 */
export const LIMITATIONS: Record<string, string> = {};
